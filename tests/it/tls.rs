//! HTTPS by default, with a certificate phones can be taught to trust.

use serde_json::json;

use crate::admin::create_admin;
use crate::browser::{Browser, signup_form};
use crate::harness::{ADMIN_PASSWORD, agent_trusting, spawn_with};
use x509_parser::prelude::*;

/// The `name` cookie that a JSON POST to `url` sets.
fn cookie_set_by(agent: &ureq::Agent, url: &str, body: serde_json::Value, name: &str) -> String {
    let res = agent.post(url).header("Content-Type", "application/json").send(body.to_string().as_bytes()).unwrap();
    let prefix = format!("{name}=");
    let mut set = res.headers().get_all("set-cookie").iter().map(|v| v.to_str().unwrap().to_owned());
    set.find(|c| c.starts_with(&prefix)).unwrap_or_else(|| panic!("{url} set no {name} cookie"))
}

fn is_secure(cookie: &str) -> bool {
    cookie.split(';').any(|attribute| attribute.trim().eq_ignore_ascii_case("secure"))
}

#[test]
fn the_default_server_speaks_https_verified_by_its_local_authority() {
    let dir = tempfile::tempdir().unwrap();
    let app = spawn_with(dir.path(), &[]).unwrap();
    assert!(app.url.starts_with("https://127.0.0.1:"), "{}", app.url);
    let ca_pem = std::fs::read(dir.path().join("tls/ca.pem")).unwrap();
    let agent = agent_trusting(&ca_pem);

    let health = agent.get(format!("{}/api/health", app.url)).call().expect("TLS verifies against the local CA");
    assert_eq!(health.status(), 200);
    assert!(
        health.headers().get("strict-transport-security").is_none(),
        "no HSTS with the local authority: a CA made anew would lock phones out"
    );
    let localhost = app.url.replace("127.0.0.1", "localhost");
    assert_eq!(agent.get(format!("{localhost}/")).call().unwrap().status(), 200);
}

#[test]
fn the_server_certificate_is_one_ios_accepts() {
    let dir = tempfile::tempdir().unwrap();
    let _app = spawn_with(dir.path(), &[]).unwrap();
    let pem = std::fs::read(dir.path().join("tls/server.pem")).unwrap();
    let (_, pem) = parse_x509_pem(&pem).unwrap();
    let cert = pem.parse_x509().unwrap();
    let validity = cert.validity();
    let days = (validity.not_after.timestamp() - validity.not_before.timestamp()) / 86_400;
    assert!(days <= 825, "valid for {days} days");
    let eku = cert.extended_key_usage().unwrap().expect("an extended key usage").value;
    assert!(eku.server_auth);
    let names: Vec<String> =
        cert.subject_alternative_name().unwrap().unwrap().value.general_names.iter().map(|n| n.to_string()).collect();
    assert!(names.iter().any(|n| n.contains("localhost")), "{names:?}");
}

#[test]
fn the_ec_server_certificate_is_for_signatures_only() {
    let dir = tempfile::tempdir().unwrap();
    let _app = spawn_with(dir.path(), &[]).unwrap();
    let pem = std::fs::read(dir.path().join("tls/server.pem")).unwrap();
    let (_, pem) = parse_x509_pem(&pem).unwrap();
    let cert = pem.parse_x509().unwrap();
    assert!(matches!(cert.public_key().parsed(), Ok(x509_parser::public_key::PublicKey::EC(_))), "an EC key");
    let usage = cert.key_usage().unwrap().expect("a key usage").value;
    assert!(usage.digital_signature());
    assert!(!usage.key_encipherment(), "an EC key enciphers nothing: {usage}");
}

#[test]
fn a_server_certificate_issued_with_key_encipherment_is_issued_anew() {
    let dir = tempfile::tempdir().unwrap();
    let mut first = spawn_with(dir.path(), &[]).unwrap();
    assert!(first.terminate().success());
    let tls = dir.path().join("tls");
    let leaf = std::fs::read_to_string(tls.join("server.pem")).unwrap();
    let names = debrief::tls::CertInfo::parse(&leaf).expect("the server certificate").names;
    // The same names from the same authority, with the key usage leaves had before.
    let ca_key = rcgen::KeyPair::from_pem(&std::fs::read_to_string(tls.join("ca.key")).unwrap()).unwrap();
    let issuer =
        rcgen::Issuer::from_ca_cert_pem(&std::fs::read_to_string(tls.join("ca.pem")).unwrap(), ca_key).unwrap();
    let key = rcgen::KeyPair::generate().unwrap();
    let mut params = rcgen::CertificateParams::new(names).unwrap();
    params.key_usages = vec![rcgen::KeyUsagePurpose::DigitalSignature, rcgen::KeyUsagePurpose::KeyEncipherment];
    params.not_after = ::time::OffsetDateTime::now_utc() + ::time::Duration::days(300);
    std::fs::write(tls.join("server.pem"), params.signed_by(&key, &issuer).unwrap().pem()).unwrap();
    std::fs::write(tls.join("server.key"), key.serialize_pem()).unwrap();

    let _app = spawn_with(dir.path(), &[]).unwrap();
    let renewed = std::fs::read(tls.join("server.pem")).unwrap();
    let (_, pem) = parse_x509_pem(&renewed).unwrap();
    let cert = pem.parse_x509().unwrap();
    let usage = cert.key_usage().unwrap().expect("a key usage").value;
    assert!(usage.digital_signature() && !usage.key_encipherment(), "{usage}");
}

/// The suite `openssl s_client` agrees with the server on, offering `ciphers`
/// in this order of preference.
fn negotiated(url: &str, version: &str, ciphers: &str) -> String {
    let address = url.trim_start_matches("https://");
    let option = if version == "-tls1_3" { "-ciphersuites" } else { "-cipher" };
    let out = std::process::Command::new("openssl")
        .args(["s_client", "-connect", address, version, option, ciphers])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run openssl ({e}); scripts/install-system-packages installs it"));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let line = text.lines().find(|l| l.contains(", Cipher is ")).unwrap_or_else(|| panic!("no handshake:\n{text}"));
    line.rsplit(' ').next().unwrap().to_owned()
}

#[test]
fn the_server_chooses_the_cipher_suite_not_the_client() {
    let dir = tempfile::tempdir().unwrap();
    let app = spawn_with(dir.path(), &[]).unwrap();
    let weakest_first = "TLS_CHACHA20_POLY1305_SHA256:TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384";
    assert_eq!(negotiated(&app.url, "-tls1_3", weakest_first), "TLS_AES_256_GCM_SHA384");
    let weakest_first = "ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384";
    assert_eq!(negotiated(&app.url, "-tls1_2", weakest_first), "ECDHE-ECDSA-AES256-GCM-SHA384");
}

#[test]
fn the_authority_is_offered_for_download_without_its_key() {
    let dir = tempfile::tempdir().unwrap();
    let app = spawn_with(dir.path(), &[]).unwrap();
    let ca_pem = std::fs::read(dir.path().join("tls/ca.pem")).unwrap();
    let agent = agent_trusting(&ca_pem);

    let mut pem = agent.get(format!("{}/ca.pem", app.url)).call().unwrap();
    assert_eq!(pem.status(), 200);
    let body = pem.body_mut().read_to_string().unwrap();
    assert_eq!(body.as_bytes(), ca_pem.as_slice());
    assert!(!body.contains("PRIVATE KEY"));

    let mut der = agent.get(format!("{}/ca.crt", app.url)).call().unwrap();
    assert_eq!(der.headers()["content-type"], "application/x-x509-ca-cert");
    let der = der.body_mut().read_to_vec().unwrap();
    let (_, cert) = X509Certificate::from_der(&der).unwrap();
    assert!(cert.is_ca());
}

#[test]
fn a_restart_keeps_the_authority_phones_already_trust() {
    let dir = tempfile::tempdir().unwrap();
    let mut first = spawn_with(dir.path(), &[]).unwrap();
    let ca_before = std::fs::read(dir.path().join("tls/ca.pem")).unwrap();
    let leaf_before = std::fs::read(dir.path().join("tls/server.pem")).unwrap();
    assert!(first.terminate().success());

    let _second = spawn_with(dir.path(), &[]).unwrap();
    assert_eq!(std::fs::read(dir.path().join("tls/ca.pem")).unwrap(), ca_before);
    assert_eq!(std::fs::read(dir.path().join("tls/server.pem")).unwrap(), leaf_before);
}

#[test]
fn a_certificate_close_to_expiry_is_renewed_by_the_same_authority() {
    let dir = tempfile::tempdir().unwrap();
    let mut first = spawn_with(dir.path(), &[]).unwrap();
    assert!(first.terminate().success());
    let ca_pem = std::fs::read(dir.path().join("tls/ca.pem")).unwrap();

    // Replace the server certificate with one that expires tomorrow.
    let key = rcgen::KeyPair::generate().unwrap();
    let mut params = rcgen::CertificateParams::new(vec!["localhost".to_owned()]).unwrap();
    params.not_after = ::time::OffsetDateTime::now_utc() + ::time::Duration::days(1);
    std::fs::write(dir.path().join("tls/server.pem"), params.self_signed(&key).unwrap().pem()).unwrap();
    std::fs::write(dir.path().join("tls/server.key"), key.serialize_pem()).unwrap();

    let app = spawn_with(dir.path(), &[]).unwrap();
    assert_eq!(std::fs::read(dir.path().join("tls/ca.pem")).unwrap(), ca_pem);
    let status = agent_trusting(&ca_pem).get(format!("{}/api/health", app.url)).call().unwrap().status();
    assert_eq!(status, 200);
}

#[test]
fn the_private_keys_are_readable_by_the_owner_only() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let _app = spawn_with(dir.path(), &[]).unwrap();
    for key in ["tls/ca.key", "tls/server.key"] {
        let mode = std::fs::metadata(dir.path().join(key)).unwrap().permissions().mode();
        assert_eq!(mode & 0o077, 0, "{key} has mode {mode:o}");
    }
}

#[test]
fn a_certificate_of_ones_own_is_served_as_given_with_strict_transport_security() {
    let dir = tempfile::tempdir().unwrap();
    let key = rcgen::KeyPair::generate().unwrap();
    let cert = rcgen::CertificateParams::new(vec!["localhost".to_owned(), "127.0.0.1".to_owned()])
        .unwrap()
        .self_signed(&key)
        .unwrap();
    let cert_path = dir.path().join("own.pem");
    let key_path = dir.path().join("own.key");
    std::fs::write(&cert_path, cert.pem()).unwrap();
    std::fs::write(&key_path, key.serialize_pem()).unwrap();
    let data = dir.path().join("data");
    let app = spawn_with(&data, &["--tls-cert", cert_path.to_str().unwrap(), "--tls-key", key_path.to_str().unwrap()])
        .unwrap();
    let health = agent_trusting(cert.pem().as_bytes()).get(format!("{}/api/health", app.url)).call().unwrap();
    assert_eq!(health.status(), 200);
    assert_eq!(health.headers()["strict-transport-security"], "max-age=31536000");
    assert!(!data.join("tls/ca.pem").exists(), "no local authority is made when a certificate is given");
}

#[test]
fn the_session_cookie_is_secure_over_https() {
    let dir = tempfile::tempdir().unwrap();
    let app = spawn_with(dir.path(), &[]).unwrap();
    let mut browser = Browser::trusting(&app.url, &std::fs::read(dir.path().join("tls/ca.pem")).unwrap());
    assert_eq!(browser.post("/api/auth/signup", signup_form("secure@example.com", "correct horse")).status, 201);
    let login = browser.post("/api/auth/login", json!({"email": "secure@example.com", "password": "correct horse"}));
    let cookie = login.set_cookie.iter().find(|c| c.starts_with("debrief_session=")).expect("a session cookie");
    assert!(is_secure(cookie), "{cookie}");
}

#[test]
fn the_admin_cookie_is_secure_over_https() {
    let dir = tempfile::tempdir().unwrap();
    let app = spawn_with(dir.path(), &[]).unwrap();
    assert!(create_admin(dir.path(), "secure-admin").status.success());
    let agent = agent_trusting(&std::fs::read(dir.path().join("tls/ca.pem")).unwrap());
    let login = json!({"username": "secure-admin", "password": ADMIN_PASSWORD});
    let cookie = cookie_set_by(&agent, &format!("{}/api/admin/login", app.url), login, "debrief_admin");
    assert!(is_secure(&cookie), "{cookie}");
}
