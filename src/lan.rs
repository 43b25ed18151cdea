//! How phones on the LAN reach this machine: its name, its addresses, the
//! URLs to print, and a QR code of the one to scan.

use std::net::{IpAddr, SocketAddr};

/// The machine's host name, without any domain part.
pub fn host_name() -> String {
    let name = gethostname::gethostname().to_string_lossy().into_owned();
    let short = name.split('.').next().unwrap_or_default();
    if short.is_empty() { "localhost".to_owned() } else { short.to_owned() }
}

/// Addresses of this machine that other devices can reach: up, not loopback,
/// not link-local IPv6 (phones cannot use those in a URL without a zone).
pub fn lan_addresses() -> Vec<IpAddr> {
    let mut addrs: Vec<IpAddr> = if_addrs::get_if_addrs()
        .unwrap_or_default()
        .into_iter()
        .map(|iface| iface.ip())
        .filter(|ip| !ip.is_loopback() && !is_link_local_v6(ip))
        .collect();
    // IPv4 first: it is what people type and what QR codes should carry.
    addrs.sort_by_key(|ip| (ip.is_ipv6(), *ip));
    addrs.dedup();
    addrs
}

fn is_link_local_v6(ip: &IpAddr) -> bool {
    matches!(ip, IpAddr::V6(v6) if (v6.segments()[0] & 0xffc0) == 0xfe80)
}

/// The names a server certificate must cover for this machine.
pub fn certificate_names() -> Vec<String> {
    let host = host_name();
    let mut names = vec!["localhost".to_owned(), "127.0.0.1".to_owned(), "::1".to_owned()];
    if host != "localhost" {
        names.push(format!("{host}.local"));
        names.push(host);
    }
    names.extend(lan_addresses().iter().map(IpAddr::to_string));
    names
}

/// The URLs at which the server bound to `bound` can be opened.
pub struct Urls {
    /// The URL to use from this machine (what tests and scripts connect to).
    pub local: String,
    /// URLs for other devices, the IP-address ones first.
    pub lan: Vec<String>,
}

impl Urls {
    pub fn for_bound(bound: SocketAddr, scheme: &str) -> Self {
        let port = bound.port();
        let url = |host: &str| format!("{scheme}://{host}:{port}");
        let ip = bound.ip();
        if ip.is_unspecified() {
            let loopback = if ip.is_ipv4() { "127.0.0.1" } else { "[::1]" };
            let mut lan: Vec<String> = lan_addresses()
                .into_iter()
                .filter(|a| ip.is_ipv6() || a.is_ipv4())
                .map(|a| url(&host_for_url(a)))
                .collect();
            let host = host_name();
            if host != "localhost" {
                lan.push(url(&format!("{host}.local")));
            }
            Self { local: url(loopback), lan }
        } else if ip.is_loopback() {
            Self { local: url(&host_for_url(ip)), lan: Vec::new() }
        } else {
            Self { local: url(&host_for_url(ip)), lan: vec![url(&host_for_url(ip))] }
        }
    }

    /// The URL a phone should scan: the first IP-address URL.
    pub fn for_phones(&self) -> Option<&str> {
        self.lan.first().map(String::as_str)
    }
}

fn host_for_url(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => format!("[{v6}]"),
    }
}

/// A QR code of `text` drawn with half-block characters, two modules a line,
/// so it fits an 80-column terminal.
pub fn qr_for_terminal(text: &str) -> Option<String> {
    let code = qrcode::QrCode::with_error_correction_level(text, qrcode::EcLevel::L).ok()?;
    Some(
        code.render::<qrcode::render::unicode::Dense1x2>()
            .dark_color(qrcode::render::unicode::Dense1x2::Light)
            .light_color(qrcode::render::unicode::Dense1x2::Dark)
            .quiet_zone(true)
            .build(),
    )
}

/// A QR code of `text` as an SVG image, black on white with its quiet zone,
/// one unit a module, for a page to scale as it likes.
pub fn qr_svg(text: &str) -> Option<String> {
    let code = qrcode::QrCode::with_error_correction_level(text, qrcode::EcLevel::M).ok()?;
    Some(code.render::<qrcode::render::svg::Color>().module_dimensions(1, 1).quiet_zone(true).build())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_loopback_bind_is_reached_only_from_this_machine() {
        let urls = Urls::for_bound("127.0.0.1:8080".parse().unwrap(), "http");
        assert_eq!(urls.local, "http://127.0.0.1:8080");
        assert!(urls.lan.is_empty());
        assert!(urls.for_phones().is_none());
    }

    #[test]
    fn an_all_interfaces_bind_is_opened_locally_through_loopback() {
        let urls = Urls::for_bound("0.0.0.0:8443".parse().unwrap(), "https");
        assert_eq!(urls.local, "https://127.0.0.1:8443");
        assert!(urls.lan.iter().all(|u| u.starts_with("https://") && u.ends_with(":8443")));
        assert!(urls.lan.iter().all(|u| !u.contains("127.0.0.1")));
    }

    #[test]
    fn ipv6_hosts_are_bracketed_in_urls() {
        let urls = Urls::for_bound("[fd00::5]:9000".parse().unwrap(), "https");
        assert_eq!(urls.local, "https://[fd00::5]:9000");
        assert_eq!(urls.for_phones(), Some("https://[fd00::5]:9000"));
    }

    #[test]
    fn the_qr_code_is_a_block_of_equal_lines() {
        let qr = qr_for_terminal("https://192.168.1.20:8443").unwrap();
        let widths: Vec<usize> = qr.lines().map(|l| l.chars().count()).collect();
        assert!(widths.len() > 10);
        assert!(widths.iter().all(|w| *w == widths[0]));
    }

    #[test]
    fn the_svg_qr_code_is_a_square_image_with_a_quiet_zone() {
        let svg = qr_svg("https://192.168.1.20:8443").unwrap();
        assert!(svg.contains("<svg") && svg.ends_with("</svg>"));
        // Version 2 at level M: 25 modules and 4 of quiet zone on each side.
        assert!(svg.contains(r#"viewBox="0 0 33 33""#), "{svg}");
    }

    #[test]
    fn certificate_names_always_cover_localhost() {
        let names = certificate_names();
        assert!(names.contains(&"localhost".to_owned()));
        assert!(names.contains(&"127.0.0.1".to_owned()));
    }
}
