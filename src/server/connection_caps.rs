//! Caps on open connections, in all and per client address, checked as a
//! connection is accepted: one over a cap is closed before a byte of it is
//! read. Without them a few thousand idle or trickling connections used up
//! the process's file descriptors, and then nothing could be accepted or
//! opened (the database, a recording), `/api/health` included.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use salvo::conn::ConnCtrl;
use salvo::fuse::{ArcConnObserver, ConnObserver, FuseAction, FuseConfig, FuseInfo, FusePolicy};

use crate::auth::address_key;

/// Descriptors kept for everything but connections: the database, the
/// control socket, model files, the runtime's own, log and outbox files.
const RESERVED_DESCRIPTORS: u64 = 128;

/// The default cap never goes above this, however high the limit: each
/// connection holds buffers, and a single box serves one team.
const MOST_CONNECTIONS: u64 = 4096;

/// At most one log line per cap in this long.
const LOG_EVERY: Duration = Duration::from_secs(60);

/// Raises the soft limit on open files to the hard one, and returns the
/// soft limit now in force.
pub fn raise_open_file_limit() -> u64 {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit writes only into `limit`.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
        return 1024;
    }
    if limit.rlim_cur < limit.rlim_max {
        let raised = libc::rlimit { rlim_cur: limit.rlim_max, rlim_max: limit.rlim_max };
        // SAFETY: setrlimit only reads `raised`.
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } == 0 {
            return raised.rlim_cur;
        }
    }
    limit.rlim_cur
}

/// The connections a limit of `open_files` descriptors allows: half of what
/// is left after the reserve, since a connection that downloads or uploads a
/// recording holds a file as well as its socket.
pub fn default_max_connections(open_files: u64) -> usize {
    let cap = (open_files.saturating_sub(RESERVED_DESCRIPTORS) / 2).clamp(16, MOST_CONNECTIONS);
    usize::try_from(cap).unwrap_or(usize::MAX)
}

/// Counts open connections and admits a new one only under both caps.
pub struct ConnectionCaps {
    max_total: usize,
    max_per_address: usize,
    open: Arc<Mutex<Open>>,
}

#[derive(Default)]
struct Open {
    total: usize,
    per_address: HashMap<String, usize>,
    total_refusals: Refusals,
    address_refusals: Refusals,
}

/// Refusals since the last log line about them.
#[derive(Default)]
struct Refusals {
    logged_at: Option<Instant>,
    since: u64,
}

impl Refusals {
    /// Counts a refusal; returns how many to report when a line is due.
    fn count(&mut self, now: Instant) -> Option<u64> {
        self.since += 1;
        if self.logged_at.is_some_and(|at| now.duration_since(at) < LOG_EVERY) {
            return None;
        }
        self.logged_at = Some(now);
        Some(std::mem::take(&mut self.since))
    }
}

impl ConnectionCaps {
    pub fn new(max_total: usize, max_per_address: usize) -> Self {
        Self { max_total: max_total.max(1), max_per_address: max_per_address.max(1), open: Arc::default() }
    }

    /// Admits a connection from `key` and counts it, or refuses it.
    fn admit(&self, key: &str) -> bool {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        if open.total >= self.max_total {
            if let Some(refused) = open.total_refusals.count(now) {
                tracing::warn!(
                    open = open.total,
                    refused,
                    "refused connections: {} are open, the most --max-connections allows \
                     ({refused} refused since the last such line)",
                    self.max_total
                );
            }
            return false;
        }
        let from_address = open.per_address.get(key).copied().unwrap_or(0);
        if from_address >= self.max_per_address {
            if let Some(refused) = open.address_refusals.count(now) {
                tracing::warn!(
                    address = key.trim_start_matches("ip:"),
                    refused,
                    "refused connections: {} are open from one address, the most \
                     --max-connections-per-address allows ({refused} refused since the last such line)",
                    self.max_per_address
                );
            }
            return false;
        }
        open.total += 1;
        *open.per_address.entry(key.to_owned()).or_default() += 1;
        true
    }
}

fn key_of(info: &FuseInfo) -> String {
    address_key(info.remote_addr.ip())
}

#[salvo::async_trait]
impl FusePolicy for ConnectionCaps {
    /// Salvo drops a refused connection unread. An admitted one keeps the
    /// default timeouts on its TLS handshake and request head.
    async fn decide(&self, info: &FuseInfo) -> FuseAction {
        if self.admit(&key_of(info)) { FuseAction::Accept(FuseConfig::default()) } else { FuseAction::Reject }
    }

    /// Salvo asks for the observer right after admitting the connection and
    /// keeps it with the connection's stream: it is dropped when the
    /// connection closes, and its drop takes the connection off the count.
    fn observe(&self, info: &FuseInfo, _ctrl: &ConnCtrl) -> Option<ArcConnObserver> {
        Some(Arc::new(Counted { key: key_of(info), open: self.open.clone() }))
    }
}

/// One admitted connection, counted until it is dropped.
struct Counted {
    key: String,
    open: Arc<Mutex<Open>>,
}

impl ConnObserver for Counted {}

impl Drop for Counted {
    fn drop(&mut self) {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        open.total = open.total.saturating_sub(1);
        if let Some(n) = open.per_address.get_mut(&self.key) {
            *n -= 1;
            if *n == 0 {
                open.per_address.remove(&self.key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(ip: &str) -> FuseInfo {
        let addr: std::net::SocketAddr = (ip.parse::<std::net::IpAddr>().unwrap(), 4000).into();
        FuseInfo { trans_proto: Default::default(), remote_addr: addr.into(), local_addr: addr.into() }
    }

    fn connect(caps: &ConnectionCaps, ip: &str) -> Option<ArcConnObserver> {
        let info = info(ip);
        caps.admit(&key_of(&info)).then(|| caps.observe(&info, &ConnCtrl::new()).unwrap())
    }

    #[test]
    fn an_address_over_its_cap_is_refused_while_others_are_admitted() {
        let caps = ConnectionCaps::new(10, 2);
        let held: Vec<_> = (0..2).map(|_| connect(&caps, "192.0.2.1").unwrap()).collect();
        assert!(connect(&caps, "192.0.2.1").is_none());
        assert!(connect(&caps, "192.0.2.2").is_some());
        drop(held);
        assert!(connect(&caps, "192.0.2.1").is_some(), "closed connections leave the count");
    }

    #[test]
    fn ipv6_addresses_of_one_64_share_a_cap() {
        let caps = ConnectionCaps::new(10, 1);
        let _held = connect(&caps, "2001:db8:1:2::1").unwrap();
        assert!(connect(&caps, "2001:db8:1:2::ffff").is_none());
        assert!(connect(&caps, "2001:db8:1:3::1").is_some());
    }

    #[test]
    fn the_total_cap_refuses_every_address_once_reached() {
        let caps = ConnectionCaps::new(3, 2);
        let _held: Vec<_> = ["192.0.2.1", "192.0.2.2", "192.0.2.3"].map(|ip| connect(&caps, ip).unwrap()).into();
        assert!(connect(&caps, "192.0.2.4").is_none());
        assert_eq!(caps.open.lock().unwrap().total, 3);
    }

    #[test]
    fn refusals_are_reported_once_a_minute_with_their_count() {
        let mut refusals = Refusals::default();
        let start = Instant::now();
        assert_eq!(refusals.count(start), Some(1));
        assert_eq!(refusals.count(start + Duration::from_secs(1)), None);
        assert_eq!(refusals.count(start + Duration::from_secs(59)), None);
        assert_eq!(refusals.count(start + LOG_EVERY), Some(3));
    }

    #[test]
    fn the_default_cap_leaves_room_under_the_usual_limit() {
        assert_eq!(default_max_connections(1024), 448);
        assert_eq!(default_max_connections(1 << 20), 4096);
        assert_eq!(default_max_connections(100), 16);
    }
}
