//! Installing the app on a phone: the manifest and service worker as browsers
//! need them, and what the "Install on this phone" page offers (the phone
//! address as a QR code, the local authority as a certificate and as an iOS
//! profile, or nothing to install when there is no local authority).

use std::io::Write;
use std::process::{Command, Stdio};

use crate::harness::{agent_trusting, client, spawn_app, spawn_with};

fn header(res: &ureq::http::Response<ureq::Body>, name: &str) -> String {
    res.headers().get(name).map(|v| v.to_str().unwrap().to_owned()).unwrap_or_default()
}

fn json(agent: &ureq::Agent, url: &str) -> serde_json::Value {
    let mut res = agent.get(url).call().unwrap();
    assert_eq!(res.status(), 200, "{url}");
    res.body_mut().read_json().unwrap()
}

#[test]
fn the_manifest_and_the_service_worker_are_served_as_browsers_require() {
    let app = spawn_app();
    let mut res = client().get(format!("{}/manifest.webmanifest", app.url)).call().unwrap();
    assert_eq!(res.status(), 200);
    assert!(header(&res, "content-type").starts_with("application/manifest+json"), "{}", header(&res, "content-type"));
    assert_eq!(header(&res, "cache-control"), "no-cache");
    let manifest: serde_json::Value = res.body_mut().read_json().unwrap();
    assert_eq!(manifest["start_url"], "/");
    assert_eq!(manifest["display"], "standalone");
    for icon in manifest["icons"].as_array().unwrap() {
        let res = client().get(format!("{}{}", app.url, icon["src"].as_str().unwrap())).call().unwrap();
        assert_eq!(res.status(), 200, "{icon}");
        assert_eq!(header(&res, "content-type"), "image/png");
        assert!(header(&res, "cache-control").contains("immutable"));
    }

    // The worker's own file is revalidated on every check, so an update is seen at once.
    let mut sw = client().get(format!("{}/sw.js", app.url)).call().unwrap();
    assert_eq!(sw.status(), 200);
    assert_eq!(header(&sw, "content-type"), "text/javascript; charset=utf-8");
    assert_eq!(header(&sw, "cache-control"), "no-cache");
    let script = sw.body_mut().read_to_string().unwrap();

    // It keeps exactly what this build made, and all of it is in the binary.
    let report = json(&client(), &format!("{}/build-report.json", app.url));
    let precache = report["serviceWorker"]["precache"].as_array().unwrap();
    assert!(precache.iter().any(|u| u == "/index.html"));
    for url in precache {
        let url = url.as_str().unwrap();
        assert!(script.contains(&format!("\"{url}\"")), "{url} is in sw.js");
        assert!(!url.starts_with("/api/"), "{url}: the API is never kept");
        let res = client().get(format!("{}{url}", app.url)).call().unwrap();
        assert_eq!(res.status(), 200, "{url}");
        if url != "/index.html" {
            assert!(!header(&res, "content-type").starts_with("text/html"), "{url} is not the page");
        }
    }
}

#[test]
fn the_install_page_offers_the_local_authority_as_certificate_and_ios_profile() {
    let dir = tempfile::tempdir().unwrap();
    let app = spawn_with(dir.path(), &["--public-url", "https://192.0.2.7:8443"]).unwrap();
    let ca_pem = std::fs::read(dir.path().join("tls/ca.pem")).unwrap();
    let agent = agent_trusting(&ca_pem);

    let info = json(&agent, &format!("{}/api/install", app.url));
    assert_eq!(info["phoneUrl"], "https://192.0.2.7:8443");
    let authority = info["localCa"].as_str().expect("the local authority's name");
    assert!(authority.starts_with("Debrief local CA"), "{authority}");

    let mut qr = agent.get(format!("{}/api/install/qr.svg", app.url)).call().unwrap();
    assert_eq!(qr.status(), 200);
    assert_eq!(header(&qr, "content-type"), "image/svg+xml");
    let svg = qr.body_mut().read_to_string().unwrap();
    assert_eq!(svg, debrief::lan::qr_svg("https://192.0.2.7:8443").unwrap(), "the code of the phone address");

    let mut der = agent.get(format!("{}/ca.crt", app.url)).call().unwrap();
    let der = der.body_mut().read_to_vec().unwrap();
    let mut profile = agent.get(format!("{}/ca.mobileconfig", app.url)).call().unwrap();
    assert_eq!(profile.status(), 200);
    assert_eq!(header(&profile, "content-type"), "application/x-apple-aspen-config");
    assert!(header(&profile, "content-disposition").contains("debrief-ca.mobileconfig"));
    let profile = profile.body_mut().read_to_vec().unwrap();
    assert!(!String::from_utf8_lossy(&profile).contains("PRIVATE KEY"));

    // Read back by a property-list parser other than ours.
    let payload = read_plist(&profile);
    assert_eq!(payload["PayloadType"], "Configuration");
    let roots = payload["PayloadContent"].as_array().unwrap();
    assert_eq!(roots.len(), 1, "one payload: the certificate");
    assert_eq!(roots[0]["PayloadType"], "com.apple.security.root");
    assert_eq!(roots[0]["PayloadDisplayName"], authority);
    assert_eq!(roots[0]["PayloadContent"], hex(&der), "the same certificate as /ca.crt");
    assert_ne!(roots[0]["PayloadUUID"], payload["PayloadUUID"]);
}

#[test]
fn without_a_local_authority_there_is_nothing_to_install() {
    // Plain HTTP on loopback: no authority, and no address a phone could open.
    let app = spawn_app();
    let info = json(&client(), &format!("{}/api/install", app.url));
    assert_eq!(info["localCa"], serde_json::Value::Null);
    assert_eq!(info["phoneUrl"], serde_json::Value::Null);
    for path in ["/ca.mobileconfig", "/ca.crt", "/api/install/qr.svg"] {
        let mut res = client().get(format!("{}{path}", app.url)).call().unwrap();
        assert_eq!(res.status(), 404, "{path}");
        let body: serde_json::Value = res.body_mut().read_json().unwrap();
        assert!(body["message"].is_string());
    }

    // A certificate of one's own: the phone already trusts it.
    let dir = tempfile::tempdir().unwrap();
    let key = rcgen::KeyPair::generate().unwrap();
    let cert = rcgen::CertificateParams::new(vec!["127.0.0.1".to_owned()]).unwrap().self_signed(&key).unwrap();
    let (cert_path, key_path) = (dir.path().join("own.pem"), dir.path().join("own.key"));
    std::fs::write(&cert_path, cert.pem()).unwrap();
    std::fs::write(&key_path, key.serialize_pem()).unwrap();
    let own = spawn_with(
        &dir.path().join("data"),
        &["--tls-cert", cert_path.to_str().unwrap(), "--tls-key", key_path.to_str().unwrap()],
    )
    .unwrap();
    let agent = agent_trusting(cert.pem().as_bytes());
    assert_eq!(json(&agent, &format!("{}/api/install", own.url))["localCa"], serde_json::Value::Null);
    assert_eq!(agent.get(format!("{}/ca.mobileconfig", own.url)).call().unwrap().status(), 404);
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The profile as JSON through Python's plistlib, with data fields as hex.
fn read_plist(profile: &[u8]) -> serde_json::Value {
    let python = std::env::var("DEBRIEF_TEST_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    let script = "import json, plistlib, sys\n\
        print(json.dumps(plistlib.loads(sys.stdin.buffer.read()), default=lambda b: b.hex()))";
    let mut child = Command::new(&python)
        .args(["-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {python}: {e}"));
    child.stdin.take().unwrap().write_all(profile).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "plistlib refused the profile: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}
