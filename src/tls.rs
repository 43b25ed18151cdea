//! HTTPS on the LAN without a public certificate.
//!
//! Phones give the microphone only to secure origins, so the server makes a
//! local certificate authority once (kept in the data directory and meant to
//! be trusted on each phone) and issues itself a server certificate for the
//! names and addresses a phone may use. The server certificate is renewed
//! when it nears expiry or when the machine's addresses change; the
//! authority is kept, so phones only ever trust it once.

use std::fs;
use std::io::Write;
use std::net::IpAddr;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use anyhow::Context;
use rcgen::{
    BasicConstraints, CertificateParams, DistinguishedName, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair,
    KeyUsagePurpose,
};
use time::{Duration, OffsetDateTime};

/// iOS refuses server certificates valid for more than 825 days; we stay
/// well inside that and renew a month ahead.
const LEAF_LIFETIME: Duration = Duration::days(397);
const RENEW_BEFORE: Duration = Duration::days(30);
const CA_LIFETIME: Duration = Duration::days(3650);

/// A certificate chain and key, as PEM, ready for the TLS listener.
pub struct ServerCert {
    pub chain_pem: String,
    pub key_pem: String,
    pub not_after: OffsetDateTime,
}

/// The files of the local authority and of the server certificate.
pub struct LocalCa {
    dir: PathBuf,
}

impl LocalCa {
    pub fn new(dir: PathBuf) -> Self {
        Self { dir }
    }

    pub fn ca_cert_path(&self) -> PathBuf {
        self.dir.join("ca.pem")
    }

    fn ca_key_path(&self) -> PathBuf {
        self.dir.join("ca.key")
    }

    fn leaf_cert_path(&self) -> PathBuf {
        self.dir.join("server.pem")
    }

    fn leaf_key_path(&self) -> PathBuf {
        self.dir.join("server.key")
    }

    /// The server certificate for `names`, issued anew when missing, close to
    /// expiry, or not covering every name.
    pub fn server_cert(&self, names: &[String]) -> anyhow::Result<ServerCert> {
        fs::create_dir_all(&self.dir).with_context(|| format!("cannot create {}", self.dir.display()))?;
        let (ca_pem, ca_key) = self.authority()?;
        if let Some(current) = self.current_leaf(names)? {
            return Ok(current);
        }
        let leaf_key = KeyPair::generate()?;
        let issuer = Issuer::from_ca_cert_pem(&ca_pem, &ca_key)?;
        let not_after = OffsetDateTime::now_utc() + LEAF_LIFETIME;
        let leaf = leaf_params(names, not_after)?.signed_by(&leaf_key, &issuer)?;
        write_private(&self.leaf_key_path(), &leaf_key.serialize_pem())?;
        fs::write(self.leaf_cert_path(), leaf.pem())?;
        tracing::info!(names = ?names, "issued a new server certificate from the local authority");
        Ok(ServerCert { chain_pem: leaf.pem() + &ca_pem, key_pem: leaf_key.serialize_pem(), not_after })
    }

    /// The authority's certificate and key, created on first use.
    fn authority(&self) -> anyhow::Result<(String, KeyPair)> {
        if let (Ok(pem), Ok(key)) = (fs::read_to_string(self.ca_cert_path()), fs::read_to_string(self.ca_key_path())) {
            let key = KeyPair::from_pem(&key).context("the local authority's key cannot be read")?;
            return Ok((pem, key));
        }
        let key = KeyPair::generate()?;
        let mut params = CertificateParams::default();
        let mut name = DistinguishedName::new();
        name.push(DnType::CommonName, format!("Debrief local CA ({})", crate::lan::host_name()));
        name.push(DnType::OrganizationName, "Debrief");
        params.distinguished_name = name;
        params.is_ca = IsCa::Ca(BasicConstraints::Constrained(0));
        params.key_usages =
            vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign, KeyUsagePurpose::DigitalSignature];
        let now = OffsetDateTime::now_utc();
        params.not_before = now - Duration::days(1);
        params.not_after = now + CA_LIFETIME;
        let cert = params.self_signed(&key)?;
        write_private(&self.ca_key_path(), &key.serialize_pem())?;
        fs::write(self.ca_cert_path(), cert.pem())?;
        tracing::info!(path = %self.ca_cert_path().display(), "created the local certificate authority");
        Ok((cert.pem(), key))
    }

    fn current_leaf(&self, names: &[String]) -> anyhow::Result<Option<ServerCert>> {
        let (Ok(cert_pem), Ok(key_pem)) =
            (fs::read_to_string(self.leaf_cert_path()), fs::read_to_string(self.leaf_key_path()))
        else {
            return Ok(None);
        };
        let Some(info) = CertInfo::parse(&cert_pem) else { return Ok(None) };
        let fresh = info.not_after - OffsetDateTime::now_utc() > RENEW_BEFORE;
        // Leaves issued before the key usage was corrected are issued anew.
        if !fresh || info.key_encipherment || !names.iter().all(|n| info.names.contains(n)) {
            return Ok(None);
        }
        let ca_pem = fs::read_to_string(self.ca_cert_path())?;
        Ok(Some(ServerCert { chain_pem: cert_pem + &ca_pem, key_pem, not_after: info.not_after }))
    }
}

fn leaf_params(names: &[String], not_after: OffsetDateTime) -> anyhow::Result<CertificateParams> {
    let mut params = CertificateParams::new(names.to_vec())?;
    let mut dn = DistinguishedName::new();
    dn.push(DnType::CommonName, names.first().cloned().unwrap_or_else(|| "localhost".into()));
    params.distinguished_name = dn;
    params.is_ca = IsCa::ExplicitNoCa;
    // The key is ECDSA: it signs the handshake and can encipher nothing
    // (Key Encipherment is for RSA key transport, and checkers flag it).
    params.key_usages = vec![KeyUsagePurpose::DigitalSignature];
    params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
    params.use_authority_key_identifier_extension = true;
    params.not_before = OffsetDateTime::now_utc() - Duration::days(1);
    params.not_after = not_after;
    Ok(params)
}

/// What we need to know of a certificate on disk.
pub struct CertInfo {
    pub not_after: OffsetDateTime,
    /// DNS names and IP addresses, as strings.
    pub names: Vec<String>,
    /// Its key usage allows key encipherment.
    pub key_encipherment: bool,
}

impl CertInfo {
    /// Reads the first certificate of a PEM file; `None` when it is not one.
    pub fn parse(pem: &str) -> Option<Self> {
        let (_, pem) = x509_parser::pem::parse_x509_pem(pem.as_bytes()).ok()?;
        let cert = pem.parse_x509().ok()?;
        let not_after = OffsetDateTime::from_unix_timestamp(cert.validity().not_after.timestamp()).ok()?;
        let mut names = Vec::new();
        if let Ok(Some(san)) = cert.subject_alternative_name() {
            for name in &san.value.general_names {
                match name {
                    x509_parser::extensions::GeneralName::DNSName(d) => names.push((*d).to_owned()),
                    x509_parser::extensions::GeneralName::IPAddress(bytes) => {
                        let ip = match bytes.len() {
                            4 => IpAddr::from(<[u8; 4]>::try_from(*bytes).ok()?),
                            16 => IpAddr::from(<[u8; 16]>::try_from(*bytes).ok()?),
                            _ => continue,
                        };
                        names.push(ip.to_string());
                    }
                    _ => {}
                }
            }
        }
        let key_encipherment = matches!(cert.key_usage(), Ok(Some(usage)) if usage.value.key_encipherment());
        Some(Self { not_after, names, key_encipherment })
    }
}

/// Reads a certificate and key given with `--tls-cert/--tls-key`.
pub fn load_files(cert: &Path, key: &Path) -> anyhow::Result<ServerCert> {
    let chain_pem = fs::read_to_string(cert).with_context(|| format!("cannot read --tls-cert {}", cert.display()))?;
    let key_pem = fs::read_to_string(key).with_context(|| format!("cannot read --tls-key {}", key.display()))?;
    let info = CertInfo::parse(&chain_pem)
        .ok_or_else(|| anyhow::anyhow!("--tls-cert {} holds no PEM certificate", cert.display()))?;
    Ok(ServerCert { chain_pem, key_pem, not_after: info.not_after })
}

/// SAN strings that rcgen will accept, skipping those it cannot encode.
pub fn usable_names(names: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for name in names {
        let ok = CertificateParams::new(vec![name.clone()]).is_ok();
        if ok && !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

fn write_private(path: &Path, contents: &str) -> anyhow::Result<()> {
    let mut file = fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    file.write_all(contents.as_bytes())?;
    Ok(())
}
