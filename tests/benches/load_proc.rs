//! What `/proc` says about the processes of a load phase and the machine under them: a process's
//! resident memory, CPU time and bytes written, the CPU time of the PostgreSQL server's processes,
//! and the time the hypervisor stole from this VM.
//!
//! Readers only: never signals or waits on a process, and reads a vanished one as zeros (a bot
//! that died shows up in the phase's errors, not as a panic here).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// `n` clock ticks: 100 a second on Linux.
fn ticks(n: u64) -> Duration {
    Duration::from_millis(n * 10)
}

/// The numbers of `/proc/PID/stat` after the command name: the state letter is field 0 here (3
/// in proc(5)), utime 11, stime 12, cutime 13, cstime 14. The command name may hold spaces and
/// parentheses, so the fields start after its last ") ". Every field is kept (tty and tpgid can
/// be -1), so the positions hold; a field that is not a number reads as 0.
fn stat_fields(pid: u32) -> Vec<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat.rsplit_once(") ").map_or("", |(_, rest)| rest);
    after
        .split_whitespace()
        .map(|f| f.parse().unwrap_or(0))
        .collect()
}

fn field(fields: &[u64], n: usize) -> u64 {
    fields.get(n).copied().unwrap_or(0)
}

/// Resident memory now and at its peak (kB), and CPU time used (user + system), of `pid`.
pub fn proc_stats(pid: u32) -> (u64, u64, Duration) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let kb = |key: &str| {
        status
            .lines()
            .find(|l| l.starts_with(key))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    let fields = stat_fields(pid);
    let cpu = ticks(field(&fields, 11) + field(&fields, 12));
    (kb("VmRSS:"), kb("VmHWM:"), cpu)
}

/// Bytes `pid` has written: `(wchar, write_bytes)` of `/proc/PID/io` — every byte handed to
/// write(2) and friends, and the bytes it sent to the block layer (page-cache pages it dirtied).
pub fn proc_io(pid: u32) -> (u64, u64) {
    let io = std::fs::read_to_string(format!("/proc/{pid}/io")).unwrap_or_default();
    let field = |key: &str| {
        io.lines()
            .find_map(|l| l.strip_prefix(key))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(0)
    };
    (field("wchar:"), field("write_bytes:"))
}

/// CPU time (user + system) of every process on this machine whose `/proc/PID/comm` is
/// `postgres` — the server's postmaster, its background processes and one backend per
/// connection — together with the CPU time of their children that have exited and been reaped
/// (`cutime` + `cstime`): a backend whose connection closes during a phase leaves its time with
/// the postmaster, so the difference of two readings still holds all the server did meanwhile.
/// Every PostgreSQL server on the machine is counted, whoever else is using it.
pub fn postgres_cpu() -> Duration {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Duration::ZERO;
    };
    let mut total = 0;
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        let comm = std::fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default();
        if comm.trim_end() == "postgres" {
            let fields = stat_fields(pid);
            total += (11..=14).map(|n| field(&fields, n)).sum::<u64>();
        }
    }
    ticks(total)
}

/// The machine's CPU time taken by the hypervisor for other guests ("steal", the 8th number of
/// `/proc/stat`'s `cpu` line), summed over all CPUs. On a shared VM it is time this benchmark's
/// processes were ready to run but could not: it shows up as latency no profile of ours explains.
pub fn steal() -> Duration {
    steal_and_idle().0
}

/// The machine's steal (see [`steal`]) and idle CPU time (the 4th and 5th numbers of the same
/// line: idle and waiting for I/O), summed over all CPUs, from one reading of `/proc/stat`.
fn steal_and_idle() -> (Duration, Duration) {
    let stat = std::fs::read_to_string("/proc/stat").unwrap_or_default();
    let fields: Vec<u64> = stat
        .lines()
        .find(|l| l.starts_with("cpu "))
        .map(|l| {
            l.split_whitespace()
                .skip(1)
                .map(|v| v.parse().unwrap_or(0))
                .collect()
        })
        .unwrap_or_default();
    let field = |n: usize| fields.get(n - 1).copied().unwrap_or(0);
    (ticks(field(8)), ticks(field(4) + field(5)))
}

/// `/proc/stat`'s steal, sampled every [`SAMPLE_STEP`] on a thread of its own while a phase
/// runs, so that the slowest interaction can be set beside what the hypervisor took while it
/// waited; and, on Linux, a thread pinned to each CPU that only sleeps the same step, to see
/// when a CPU ran nothing of ours (see [`Stalls`]).
pub struct StealSampler {
    stop: Arc<AtomicBool>,
    /// Each sample: when, the steal and the idle time so far.
    thread: std::thread::JoinHandle<Vec<(Instant, Duration, Duration)>>,
    pinned: Vec<std::thread::JoinHandle<Vec<Instant>>>,
}

/// What the machine had to spare while a phase ran: its idle share of all CPUs over the whole
/// phase, and how many of its [`BUSY_WINDOW`]s (back to back) left less than [`BUSY_IDLE`] idle
/// — spans in which the bots, the fake and the sender together wanted every core, so that a
/// queue grew whatever the bot did. `/proc/stat` counts in ticks of 10 ms per CPU, so a window
/// of 100 ms on 2 CPUs is read to 5%.
#[derive(Debug, Clone, Copy, Default)]
pub struct Spare {
    pub idle_share: f64,
    pub busy_windows: usize,
    pub windows: usize,
}

/// The span [`Spare`] judges the machine's idle share over.
pub const BUSY_WINDOW: Duration = Duration::from_millis(100);
/// The idle share under which a [`BUSY_WINDOW`] counts as busy.
pub const BUSY_IDLE: f64 = 0.05;

impl StealSampler {
    pub fn start() -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::spawn(move || {
            let sample = || {
                let (steal, idle) = steal_and_idle();
                (Instant::now(), steal, idle)
            };
            let mut samples = vec![sample()];
            while !flag.load(Ordering::Relaxed) {
                std::thread::sleep(SAMPLE_STEP);
                samples.push(sample());
            }
            samples
        });
        let cpus = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        let pinned = (0..cpus)
            .map(|cpu| {
                let flag = stop.clone();
                std::thread::spawn(move || {
                    if !pin_to(cpu) {
                        return Vec::new();
                    }
                    let mut woke = vec![Instant::now()];
                    while !flag.load(Ordering::Relaxed) {
                        std::thread::sleep(SAMPLE_STEP);
                        woke.push(Instant::now());
                    }
                    woke
                })
            })
            .collect();
        Self {
            stop,
            thread,
            pinned,
        }
    }

    /// The steal samples, the stalls the pinned threads saw, and the CPU the machine had to
    /// spare.
    pub fn finish(self) -> (Vec<(Instant, Duration)>, Stalls, Spare) {
        self.stop.store(true, Ordering::Relaxed);
        let samples = self.thread.join().unwrap_or_default();
        let cpus = self.pinned.len().max(1);
        let spare = spare(&samples, cpus);
        let samples = samples.into_iter().map(|(at, s, _)| (at, s)).collect();
        let mut seen = Stalls::default();
        for thread in self.pinned {
            seen.add(stalls(&thread.join().unwrap_or_default()));
        }
        (samples, seen, spare)
    }
}

/// The [`Spare`] in `samples` (when, steal, idle so far) of a machine with `cpus` CPUs.
fn spare(samples: &[(Instant, Duration, Duration)], cpus: usize) -> Spare {
    let share = |from: &(Instant, Duration, Duration), to: &(Instant, Duration, Duration)| {
        let span = to.0.saturating_duration_since(from.0).as_secs_f64() * cpus as f64;
        to.2.saturating_sub(from.2).as_secs_f64() / span.max(1e-9)
    };
    let (Some(first), Some(last)) = (samples.first(), samples.last()) else {
        return Spare::default();
    };
    let mut seen = Spare {
        idle_share: share(first, last),
        ..Spare::default()
    };
    let mut from = first;
    for sample in samples {
        if sample.0.saturating_duration_since(from.0) >= BUSY_WINDOW {
            seen.windows += 1;
            if share(from, sample) < BUSY_IDLE {
                seen.busy_windows += 1;
            }
            from = sample;
        }
    }
    seen
}

/// Pins the calling thread to CPU `cpu`; whether it could.
fn pin_to(cpu: usize) -> bool {
    #[cfg(target_os = "linux")]
    {
        let mut set = rustix::thread::CpuSet::new();
        set.set(cpu);
        rustix::thread::sched_setaffinity(None, &set).is_ok()
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = cpu;
        false
    }
}

/// The sampler's sleep between two samples ([`StealSampler`]).
pub const SAMPLE_STEP: Duration = Duration::from_millis(10);
/// How much later than [`SAMPLE_STEP`] a sample may come before the gap counts as a stall.
pub const STALL_OVER: Duration = Duration::from_millis(5);

/// Stalls the pinned samplers saw ([`StealSampler`]): gaps between a thread's wake-ups longer
/// than [`SAMPLE_STEP`] by more than [`STALL_OVER`]. A thread that only sleeps, pinned to one
/// CPU, woken that late got nothing of that CPU for that long: the hypervisor ran something
/// else on that vCPU, or it was busy for milliseconds on end with work that kept the sampler
/// out. The hypervisor's steal does not always show the first: on the 2-core VM of issue 33's
/// tenth day, two busy-looping processes saw 16–19 gaps of over 2 ms in 20 s (up to 50 ms)
/// while `/proc/stat`'s steal stayed near 0; one busy process saw none. The same day the bots'
/// waits of 20–200 ms at 5,000 `/roll` a second came with no stall here: they were not stalls.
#[derive(Debug, Clone, Copy, Default)]
pub struct Stalls {
    pub count: usize,
    /// Their lateness beyond the step, summed, and the longest.
    pub total: Duration,
    pub longest: Duration,
}

impl Stalls {
    /// Counts `other`'s stalls in with these.
    fn add(&mut self, other: Stalls) {
        self.count += other.count;
        self.total += other.total;
        self.longest = self.longest.max(other.longest);
    }
}

/// The [`Stalls`] in one sleeping thread's wake-ups.
fn stalls(woke: &[Instant]) -> Stalls {
    let mut seen = Stalls::default();
    for pair in woke.windows(2) {
        let late = pair[1]
            .saturating_duration_since(pair[0])
            .saturating_sub(SAMPLE_STEP);
        if late > STALL_OVER {
            seen.add(Stalls {
                count: 1,
                total: late,
                longest: late,
            });
        }
    }
    seen
}

/// Steal between two instants, from the samples (the last sample at or before each).
pub fn steal_between(samples: &[(Instant, Duration)], from: Instant, to: Instant) -> Duration {
    let at = |t: Instant| {
        samples
            .iter()
            .take_while(|(when, _)| *when <= t)
            .last()
            .or(samples.first())
            .map_or(Duration::ZERO, |(_, s)| *s)
    };
    at(to).saturating_sub(at(from))
}

/// Where `pid`'s resident code is: (kB inside the start-up layout's packed section, kB in the
/// rest of the binary's code), read from `/proc/PID/pagemap` (a page's "present" bit) over the
/// binary's executable mapping, the section's bounds from its ELF header (`readelf`). `None`
/// when either cannot be read (no section: a build without the layout; no pagemap; no readelf).
pub fn resident_code(pid: u32) -> Option<(u64, u64)> {
    use std::io::{Read, Seek, SeekFrom};
    let exe = std::fs::read_link(format!("/proc/{pid}/exe")).ok()?;
    let sections = std::process::Command::new("readelf")
        .args(["-SW"])
        .arg(&exe)
        .output()
        .ok()?;
    let sections = String::from_utf8_lossy(&sections.stdout);
    // "[15] .text.referee_startup PROGBITS 0000000000123000 123000 2f1a20 00 AX 0 0 64"
    let (addr, size) = sections.lines().find_map(|l| {
        let at = l.find(".text.referee_startup ")?;
        let mut f = l[at..].split_whitespace().skip(2);
        let addr = u64::from_str_radix(f.next()?, 16).ok()?;
        let _offset = f.next()?;
        let size = u64::from_str_radix(f.next()?, 16).ok()?;
        Some((addr, size))
    })?;
    // The binary's mappings: its lowest (file offset 0) gives the load address of a PIE, and
    // the executable one is where its code is.
    let maps = std::fs::read_to_string(format!("/proc/{pid}/maps")).ok()?;
    let exe_name = exe.to_string_lossy();
    let mut base = None;
    let mut code = None;
    for line in maps.lines().filter(|l| l.ends_with(exe_name.as_ref())) {
        let mut f = line.split_whitespace();
        let (range, perms, offset) = (f.next()?, f.next()?, f.next()?);
        let (start, end) = range.split_once('-')?;
        let (start, end) = (
            u64::from_str_radix(start, 16).ok()?,
            u64::from_str_radix(end, 16).ok()?,
        );
        if u64::from_str_radix(offset, 16).ok()? == 0 {
            base = Some(base.map_or(start, |b: u64| b.min(start)));
        }
        if perms.starts_with("r-x") {
            code = Some((start, end));
        }
    }
    let (base, (start, end)) = (base?, code?);
    let (packed_start, packed_end) = (base + addr, base + addr + size);
    let mut pagemap = std::fs::File::open(format!("/proc/{pid}/pagemap")).ok()?;
    let page = 4096;
    let pages = usize::try_from((end - start) / page).ok()?;
    let mut entries = vec![0u8; pages * 8];
    pagemap.seek(SeekFrom::Start(start / page * 8)).ok()?;
    pagemap.read_exact(&mut entries).ok()?;
    let (mut inside, mut outside) = (0, 0);
    for (i, entry) in entries.chunks_exact(8).enumerate() {
        let present = u64::from_le_bytes(entry.try_into().ok()?) >> 63 == 1;
        if !present {
            continue;
        }
        let at = start + i as u64 * page;
        if at + page > packed_start && at < packed_end {
            inside += page / 1024;
        } else {
            outside += page / 1024;
        }
    }
    Some((inside, outside))
}
