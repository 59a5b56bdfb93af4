//! Whether the machine has CPU to spare, for SQLite's group commit (issue 33, item 5).
//!
//! A write on a busy SQLite writer waits up to [`crate::store::LINGER`] for others to share its
//! commit. That saves CPU — fewer commits, and fewer wake-ups of the writing thread and of the
//! async runtime — but every answer waits for it: at `/roll` 5,000 a second (`cargo bench
//! --bench bot_load`) p50 was 0.9–1.0 ms with the wait and 0.3 ms without, for 45% more CPU
//! per roll without. CPU spent while the machine has it to spare costs nothing, so the wait is
//! only worth it when CPU is short. Every [`EVERY`] this thread reads the CPU time of the cores
//! this process may run on (`Cpus_allowed_list` in `/proc/self/status`, their lines in
//! `/proc/stat`) and tells the store ([`crate::store::Store::spare_cpu`]): spare once at least
//! [`SPARE_FROM`] of their time was idle, short again below [`SHORT_BELOW`] (two thresholds, so
//! that the wait's own saving does not flip it back at once).
//!
//! Decision: those cores' time, not this process's, because the bot shares them with whatever
//! runs beside it (the database server, a load balancer, other bots); time stolen by the
//! hypervisor counts as busy. Where there is no `/proc/stat` (not Linux) the store keeps
//! waiting, as before. `REFEREE_SPARE_CPU=off` keeps it waiting everywhere.

use std::sync::{Arc, Weak};
use std::time::Duration;

use crate::app::App;

/// How often the machine's CPU time is read.
pub const EVERY: Duration = Duration::from_millis(100);
/// The machine has CPU to spare once at least this share of its time was idle.
pub const SPARE_FROM: f64 = 0.35;
/// CPU is short again once less than this share of the machine's time was idle.
pub const SHORT_BELOW: f64 = 0.25;
/// The environment variable that turns the watch off (`off`): the store then always waits.
pub const SPARE_ENV: &str = "REFEREE_SPARE_CPU";

/// The idle and total CPU time so far, in clock ticks, of the cores `cores` (all of them, the
/// first line, when `None`), from the text of `/proc/stat` (a line per core: `cpuN user nice
/// system idle iowait irq softirq steal …`). Idle is `idle` plus `iowait`; total is the first
/// eight fields (guest time is already in `user`). `None` if a core's line is missing or
/// unreadable.
pub fn times(stat: &str, cores: Option<&[usize]>) -> Option<(u64, u64)> {
    let ticks_of = |line: &str| -> Option<(String, u64, u64)> {
        let mut fields = line.split_ascii_whitespace();
        let name = fields.next()?.to_owned();
        let ticks: Vec<u64> = fields
            .take(8)
            .map(str::parse)
            .collect::<Result<_, _>>()
            .ok()?;
        (ticks.len() >= 5).then(|| (name, ticks[3] + ticks[4], ticks.iter().sum()))
    };
    let Some(cores) = cores else {
        let (name, idle, total) = ticks_of(stat.lines().next()?)?;
        return (name == "cpu").then_some((idle, total));
    };
    let mut sum = (0, 0);
    for &core in cores {
        let name = format!("cpu{core}");
        let line = stat
            .lines()
            .find(|l| l.split_ascii_whitespace().next() == Some(name.as_str()))?;
        let (_, idle, total) = ticks_of(line)?;
        sum = (sum.0 + idle, sum.1 + total);
    }
    (!cores.is_empty()).then_some(sum)
}

/// The cores this process may run on, from the text of `/proc/self/status`
/// (`Cpus_allowed_list:` followed by ranges such as `0-3,6`).
pub fn allowed_cores(status: &str) -> Option<Vec<usize>> {
    let ranges = status
        .lines()
        .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))?
        .trim();
    let mut cores = Vec::new();
    for part in ranges.split(',') {
        let (first, last): (usize, usize) = if let Some((a, b)) = part.split_once('-') {
            (a.trim().parse().ok()?, b.trim().parse().ok()?)
        } else {
            let n = part.trim().parse().ok()?;
            (n, n)
        };
        if last < first || last - first > 4096 {
            return None;
        }
        cores.extend(first..=last);
    }
    (!cores.is_empty()).then_some(cores)
}

/// The share of the machine's time that was idle between two readings of [`times`]; `None`
/// when no time passed.
#[allow(clippy::cast_precision_loss)] // ticks between two readings 100 ms apart
pub fn idle_share(before: (u64, u64), after: (u64, u64)) -> Option<f64> {
    let total = after.1.checked_sub(before.1).filter(|&t| t > 0)?;
    let idle = after.0.saturating_sub(before.0).min(total);
    Some(idle as f64 / total as f64)
}

/// Whether the machine has CPU to spare now, given whether it had (`was`) and the idle share
/// just measured.
pub fn spare(was: bool, idle: f64) -> bool {
    if was {
        idle >= SHORT_BELOW
    } else {
        idle >= SPARE_FROM
    }
}

/// Whether `setting` (`REFEREE_SPARE_CPU`) leaves the watch on: unless it is `off`.
pub fn on(setting: Option<&str>) -> bool {
    !setting.is_some_and(|v| v.trim().eq_ignore_ascii_case("off"))
}

/// Starts the thread that keeps `app`'s store told whether the machine has CPU to spare; it
/// ends once the app is gone. Nothing where `/proc/stat` cannot be read, or when turned off.
pub fn watch(app: &Arc<App>) {
    if !on(std::env::var(SPARE_ENV).ok().as_deref()) {
        return;
    }
    let cores = std::fs::read_to_string("/proc/self/status")
        .ok()
        .as_deref()
        .and_then(allowed_cores);
    let read = move || {
        let stat = std::fs::read_to_string("/proc/stat").ok()?;
        // A core without a line (gone offline): the whole machine instead.
        times(&stat, cores.as_deref()).or_else(|| times(&stat, None))
    };
    let Some(mut before) = read() else {
        tracing::debug!("no /proc/stat: SQLite's groups always wait for more writes");
        return;
    };
    let app: Weak<App> = Arc::downgrade(app);
    let started = std::thread::Builder::new()
        .name("referee-spare".into())
        .spawn(move || {
            let mut was = false;
            loop {
                std::thread::sleep(EVERY);
                let Some(app) = app.upgrade() else { return };
                let Some(now) = read() else { return };
                if let Some(idle) = idle_share(before, now) {
                    let is = spare(was, idle);
                    if is != was {
                        app.store().spare_cpu(is);
                        was = is;
                    }
                }
                before = now;
            }
        });
    if let Err(e) = started {
        tracing::warn!(error = %e, "cannot start the CPU watch: SQLite's groups always wait");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STAT: &str = "cpu  100 5 50 800 20 3 7 15 0 0
cpu0 50 2 25 400 10 1 3 7 0 0
cpu1 30 3 20 300 5 1 2 4 0 0
cpu2 20 0 5 100 5 1 2 4 0 0
intr 12345
";

    #[test]
    fn idle_and_total_ticks_come_from_the_allowed_cores_lines_or_the_machines() {
        type Case<'a> = (&'a str, Option<&'a [usize]>, Option<(u64, u64)>);
        let cases: [Case; 8] = [
            (STAT, None, Some((820, 1000))),
            (STAT, Some(&[0]), Some((410, 498))),
            (STAT, Some(&[1, 2]), Some((410, 502))),
            (STAT, Some(&[3]), None),
            (STAT, Some(&[]), None),
            // An older kernel's five fields.
            ("cpu 10 0 10 70 10\n", None, Some((80, 100))),
            ("cpu0 10 0 10 70 10\n", None, None),
            ("cpu 10 0 ten 70 10\n", None, None),
        ];
        for (text, cores, expected) in cases {
            assert_eq!(times(text, cores), expected, "{cores:?} of {text:?}");
        }
        assert_eq!(times("", None), None);
    }

    #[test]
    fn the_allowed_cores_are_read_from_their_ranges() {
        let status =
            |list: &str| format!("Name:\treferee\nCpus_allowed:\t3\nCpus_allowed_list:\t{list}\n");
        let cases: [(&str, Option<Vec<usize>>); 6] = [
            ("0-1", Some(vec![0, 1])),
            ("1", Some(vec![1])),
            ("0-2,5,7-8", Some(vec![0, 1, 2, 5, 7, 8])),
            ("2-1", None),
            ("a-b", None),
            ("", None),
        ];
        for (list, expected) in cases {
            assert_eq!(allowed_cores(&status(list)), expected, "{list:?}");
        }
        assert_eq!(allowed_cores("Name:\treferee\n"), None);
    }

    #[test]
    fn the_idle_share_is_of_the_time_between_two_readings() {
        assert_eq!(idle_share((100, 1_000), (150, 1_200)), Some(0.25));
        assert_eq!(idle_share((100, 1_000), (300, 1_200)), Some(1.0));
        // More idle than time passed (counters read a tick apart) is all idle, no more.
        assert_eq!(idle_share((100, 1_000), (400, 1_200)), Some(1.0));
        assert_eq!(
            idle_share((100, 1_000), (100, 1_000)),
            None,
            "no time passed"
        );
        assert_eq!(
            idle_share((100, 1_000), (100, 900)),
            None,
            "the counters went back"
        );
    }

    /// Both sides of both thresholds, from either state.
    #[test]
    fn cpu_turns_spare_at_the_upper_threshold_and_short_below_the_lower() {
        let cases = [
            (false, SPARE_FROM - 0.001, false),
            (false, SPARE_FROM, true),
            (false, SHORT_BELOW, false),
            (true, SHORT_BELOW, true),
            (true, SHORT_BELOW - 0.001, false),
            (true, SPARE_FROM, true),
        ];
        for (was, idle, expected) in cases {
            assert_eq!(spare(was, idle), expected, "was {was}, idle {idle}");
        }
    }

    #[test]
    fn the_watch_is_on_unless_turned_off() {
        for (setting, expected) in [
            (None, true),
            (Some("on"), true),
            (Some("off"), false),
            (Some(" OFF "), false),
        ] {
            assert_eq!(on(setting), expected, "{setting:?}");
        }
    }
}
