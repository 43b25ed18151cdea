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

    /// How long `key` must still wait, if it is refused now.
    pub fn blocked_for(&self, key: &str) -> Option<Duration> {
        let now = Instant::now();
        let mut map = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        let times = map.get_mut(key)?;
        prune(times, now, self.window);
        if times.len() < self.max {
            return None;
        }
        times.front().map(|oldest| self.window.saturating_sub(now - *oldest))
    }

    pub fn record(&self, key: &str) {
        let now = Instant::now();
        let mut map = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        let times = map.entry(key.to_owned()).or_default();
        prune(times, now, self.window);
        times.push_back(now);
        // Keep memory bounded under a flood of one key.
        while times.len() > self.max {
            times.pop_front();
        }
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

    #[test]
    fn a_key_is_refused_after_max_failures_and_others_are_not() {
        let throttle = Throttle::new(3, Duration::from_secs(60));
        for _ in 0..2 {
            throttle.record("a");
        }
        assert!(throttle.blocked_for("a").is_none());
        throttle.record("a");
        assert!(throttle.blocked_for("a").is_some_and(|d| d <= Duration::from_secs(60)));
        assert!(throttle.blocked_for("b").is_none());
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
        throttle.record("a");
        assert!(throttle.blocked_for("a").is_some());
        std::thread::sleep(Duration::from_millis(40));
        assert!(throttle.blocked_for("a").is_none());
        throttle.sweep();
        assert!(throttle.failures.lock().unwrap().is_empty());
    }
}
