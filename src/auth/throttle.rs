use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Counts events (failed sign-ins, sent emails) per key (a client address, an account) in a sliding
/// window; a key with `max` failures inside the window is refused until the
/// oldest of them leaves it.
#[derive(Clone)]
pub struct Throttle {
    max: usize,
    window: Duration,
    failures: Arc<Mutex<HashMap<String, VecDeque<Instant>>>>,
}

impl Throttle {
    pub fn new(max: usize, window: Duration) -> Self {
        Self { max: max.max(1), window, failures: Arc::default() }
    }

    /// Checks every key and, unless one of them is refused, counts an
    /// attempt against each of them at once, under one lock: concurrent
    /// attempts cannot all pass the check before any of them is counted.
    /// The attempt stays counted (a failure) unless it is dropped by
    /// [`Attempt::succeeded`]. `Err` is how long the caller must still wait.
    pub fn attempt<'a>(&'a self, keys: &[&str]) -> Result<Attempt<'a>, Duration> {
        let now = Instant::now();
        let mut map = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        let mut wait = None;
        for key in keys {
            if let Some(times) = map.get_mut(*key) {
                prune(times, now, self.window);
                if times.len() >= self.max {
                    let left = times.front().map_or(self.window, |oldest| self.window.saturating_sub(now - *oldest));
                    wait = wait.max(Some(left));
                }
            }
        }
        if let Some(wait) = wait {
            return Err(wait);
        }
        for key in keys {
            map.entry((*key).to_owned()).or_default().push_back(now);
        }
        Ok(Attempt { throttle: self, keys: keys.iter().map(|k| (*k).to_owned()).collect(), at: now })
    }

    pub fn clear(&self, key: &str) {
        self.failures.lock().unwrap_or_else(|e| e.into_inner()).remove(key);
    }

    /// Drops keys with no failure left in the window.
    pub fn sweep(&self) {
        let now = Instant::now();
        let mut map = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        map.retain(|_, times| {
            prune(times, now, self.window);
            !times.is_empty()
        });
    }
}

/// An attempt counted against its keys; dropping it keeps it counted.
#[must_use = "an attempt that is not marked as succeeded counts as a failure"]
pub struct Attempt<'a> {
    throttle: &'a Throttle,
    keys: Vec<String>,
    at: Instant,
}

impl Attempt<'_> {
    /// Takes the attempt back: it did not fail.
    pub fn succeeded(self) {
        let mut map = self.throttle.failures.lock().unwrap_or_else(|e| e.into_inner());
        for key in &self.keys {
            if let Some(times) = map.get_mut(key)
                && let Some(i) = times.iter().position(|t| *t == self.at)
            {
                times.remove(i);
            }
        }
    }
}

/// The throttling key of a client address. IPv6 clients are grouped by
/// /64, since one host usually holds a whole /64 and could otherwise take a
/// fresh address for every attempt.
pub fn address_key(ip: Option<IpAddr>) -> String {
    match ip.map(|ip| ip.to_canonical()) {
        Some(IpAddr::V6(v6)) => {
            let s = v6.segments();
            format!("ip:{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
        }
        Some(ip) => format!("ip:{ip}"),
        None => "ip:unknown".to_owned(),
    }
}

fn prune(times: &mut VecDeque<Instant>, now: Instant, window: Duration) {
    while times.front().is_some_and(|t| now.duration_since(*t) >= window) {
        times.pop_front();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fail(throttle: &Throttle, key: &str) -> bool {
        throttle.attempt(&[key]).is_ok()
    }

    #[test]
    fn a_key_is_refused_after_max_failures_and_others_are_not() {
        let throttle = Throttle::new(3, Duration::from_secs(60));
        assert!((0..3).all(|_| fail(&throttle, "a")));
        let wait = throttle.attempt(&["a"]).err().expect("the fourth attempt is refused");
        assert!(wait <= Duration::from_secs(60));
        assert!(fail(&throttle, "b"));
    }

    #[test]
    fn an_attempt_is_refused_when_any_of_its_keys_is() {
        let throttle = Throttle::new(1, Duration::from_secs(60));
        assert!(fail(&throttle, "account"));
        assert!(throttle.attempt(&["address", "account"]).is_err());
        assert!(fail(&throttle, "address"), "a refused attempt counts against none of its keys");
    }

    #[test]
    fn a_successful_attempt_is_taken_back() {
        let throttle = Throttle::new(2, Duration::from_secs(60));
        for _ in 0..5 {
            throttle.attempt(&["a", "b"]).unwrap().succeeded();
        }
        assert!(fail(&throttle, "a") && fail(&throttle, "b"));
    }

    #[test]
    fn concurrent_attempts_cannot_all_pass_the_check_before_one_is_counted() {
        let throttle = Throttle::new(10, Duration::from_secs(60));
        let barrier = std::sync::Barrier::new(60);
        let passed = std::sync::atomic::AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for _ in 0..60 {
                scope.spawn(|| {
                    barrier.wait();
                    if let Ok(attempt) = throttle.attempt(&["ip", "account"]) {
                        passed.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        // The password check takes a while; the attempt is
                        // counted all along.
                        std::thread::sleep(Duration::from_millis(20));
                        drop(attempt);
                    }
                });
            }
        });
        assert_eq!(passed.into_inner(), 10);
    }

    #[test]
    fn addresses_are_keyed_alone_in_ipv4_and_by_their_64_in_ipv6() {
        let key = |s: &str| address_key(Some(s.parse().unwrap()));
        assert_eq!(key("192.0.2.7"), "ip:192.0.2.7");
        assert_eq!(key("::ffff:192.0.2.7"), "ip:192.0.2.7", "an IPv4 client seen through an IPv6 socket");
        assert_eq!(key("2001:db8:1:2:aaaa::1"), key("2001:db8:1:2:bbbb::9"), "one /64, one key");
        assert_ne!(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"));
        assert_eq!(address_key(None), "ip:unknown");
    }

    #[test]
    fn failures_leave_the_window() {
        let throttle = Throttle::new(1, Duration::from_millis(30));
        assert!(fail(&throttle, "a"));
        assert!(!fail(&throttle, "a"));
        std::thread::sleep(Duration::from_millis(40));
        throttle.sweep();
        assert!(throttle.failures.lock().unwrap().is_empty());
        assert!(fail(&throttle, "a"));
    }
}
