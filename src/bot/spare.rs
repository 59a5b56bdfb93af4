//! Whether the machine has CPU to spare, for SQLite's group commit (issue 33, item 5).
//!
//! A write on a busy SQLite writer waits up to [`crate::store::LINGER`] for others to share its
//! commit. That saves CPU — fewer commits, and fewer wake-ups of the writing thread and of the
//! async runtime — but every answer waits for it: at `/roll` 5,000 a second (`cargo bench
//! --bench bot_load`) p50 was 0.9–1.0 ms with the wait and 0.3 ms without, for 45% more CPU
//! per roll without. CPU spent while the machine has it to spare costs nothing, so the wait is
//! only worth it when CPU is short. Every [`EVERY`] this thread reads the whole machine's CPU
//! time from `/proc/stat` and tells the store ([`crate::store::Store::spare_cpu`]): spare once
//! at least [`SPARE_FROM`] of the machine's time was idle, short again below [`SHORT_BELOW`]
//! (two thresholds, so that the wait's own saving does not flip it back at once).
//!
//! Decision: the whole machine, not this process, because the bot shares its cores with
//! whatever runs beside it (the database server, a load balancer, other bots); time stolen by
//! the hypervisor counts as busy. Where there is no `/proc/stat` (not Linux) the store keeps
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

/// The machine's idle and total CPU time so far, in clock ticks, from the text of
/// `/proc/stat` (its first line: `cpu user nice system idle iowait irq softirq steal …`).
/// Idle is `idle` plus `iowait`; total is the first eight fields (guest time is already in
/// `user`).
pub fn times(stat: &str) -> Option<(u64, u64)> {
    let line = stat.lines().next()?;
    let mut fields = line.split_ascii_whitespace();
    if fields.next()? != "cpu" {
        return None;
    }
    let ticks: Vec<u64> = fields
        .take(8)
        .map(str::parse)
        .collect::<Result<_, _>>()
        .ok()?;
    if ticks.len() < 5 {
        return None;
    }
    Some((ticks[3] + ticks[4], ticks.iter().sum()))
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
    let read = || {
        std::fs::read_to_string("/proc/stat")
            .ok()
            .as_deref()
            .and_then(times)
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

    #[test]
    fn the_machines_idle_and_total_ticks_come_from_the_first_line() {
        let cases: [(&str, Option<(u64, u64)>); 5] = [
            (
                "cpu  100 5 50 800 20 3 7 15 0 0\ncpu0 50 2 25 400 10 1 3 7 0 0\n",
                Some((820, 1000)),
            ),
            // An older kernel's five fields.
            ("cpu 10 0 10 70 10\n", Some((80, 100))),
            ("cpu0 10 0 10 70 10\n", None),
            ("cpu 10 0 ten 70 10\n", None),
            ("", None),
        ];
        for (text, expected) in cases {
            assert_eq!(times(text), expected, "{text:?}");
        }
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
