//! The local authority as an iOS configuration profile: iPhones install a
//! root certificate from a profile, not from a bare certificate file. The
//! profile is unsigned and holds the certificate only, never a key.

use base64::Engine;
use sha2::{Digest, Sha256};

/// A `.mobileconfig` with one `com.apple.security.root` payload carrying
/// `der`. Its identifiers derive from the certificate, so downloading the
/// same authority twice replaces the profile instead of adding a second one.
pub fn ios_profile(der: &[u8], name: &str) -> String {
    let digest = Sha256::digest(der);
    let identifier = format!("local.debrief.ca.{}", hex(&digest[..8]));
    let certificate = base64::engine::general_purpose::STANDARD.encode(der);
    let name = xml_escape(name);
    let description = "Lets this phone trust the Debrief server on your network, so the app can record over HTTPS.";
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>PayloadContent</key>
	<array>
		<dict>
			<key>PayloadCertificateFileName</key>
			<string>debrief-ca.crt</string>
			<key>PayloadContent</key>
			<data>{certificate}</data>
			<key>PayloadDescription</key>
			<string>{description}</string>
			<key>PayloadDisplayName</key>
			<string>{name}</string>
			<key>PayloadIdentifier</key>
			<string>{identifier}.root</string>
			<key>PayloadType</key>
			<string>com.apple.security.root</string>
			<key>PayloadUUID</key>
			<string>{root_uuid}</string>
			<key>PayloadVersion</key>
			<integer>1</integer>
		</dict>
	</array>
	<key>PayloadDescription</key>
	<string>{description}</string>
	<key>PayloadDisplayName</key>
	<string>{name}</string>
	<key>PayloadIdentifier</key>
	<string>{identifier}</string>
	<key>PayloadRemovalDisallowed</key>
	<false/>
	<key>PayloadType</key>
	<string>Configuration</string>
	<key>PayloadUUID</key>
	<string>{profile_uuid}</string>
	<key>PayloadVersion</key>
	<integer>1</integer>
</dict>
</plist>
"#,
        root_uuid = uuid_from(&digest[..16]),
        profile_uuid = uuid_from(&digest[16..]),
    )
}

/// A UUID-shaped string (version 8, "custom") made of 16 bytes of the hash.
fn uuid_from(bytes: &[u8]) -> String {
    let mut b = [0u8; 16];
    b.copy_from_slice(&bytes[..16]);
    b[6] = (b[6] & 0x0f) | 0x80;
    b[8] = (b[8] & 0x3f) | 0x80;
    let h = hex(&b).to_ascii_uppercase();
    format!("{}-{}-{}-{}-{}", &h[..8], &h[8..12], &h[12..16], &h[16..20], &h[20..])
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_profile_carries_the_certificate_and_nothing_else() {
        let der = b"not really a certificate, but bytes all the same";
        let profile = ios_profile(der, "Debrief local CA (pi)");
        let encoded = base64::engine::general_purpose::STANDARD.encode(der);
        assert!(profile.contains(&format!("<data>{encoded}</data>")));
        assert!(profile.contains("<string>com.apple.security.root</string>"));
        assert!(profile.contains("<string>Debrief local CA (pi)</string>"));
        assert!(!profile.contains("PRIVATE"));
    }

    #[test]
    fn the_same_authority_gives_the_same_profile_identity() {
        let a = ios_profile(b"one", "x");
        assert_eq!(a, ios_profile(b"one", "x"));
        assert_ne!(a, ios_profile(b"two", "x"));
        let uuid = uuid_from(&[0xff; 16]);
        assert_eq!(uuid, "FFFFFFFF-FFFF-8FFF-BFFF-FFFFFFFFFFFF");
    }

    #[test]
    fn names_are_escaped_for_xml() {
        assert!(ios_profile(b"c", "a<b & c>").contains("<string>a&lt;b &amp; c&gt;</string>"));
    }
}
