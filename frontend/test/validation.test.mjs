// The forms' validators against the cases the server runs too
// (tests/vectors/validation.json at the repository's root): any difference fails.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import {
  isEmail,
  recheckClientOnSubmit,
  validateClient,
  isWebUrl,
  trimText,
  validateLogin,
  validateNewPassword,
  validateSignup,
  validators,
} from "../src/lib/validation.ts";

const frontend = process.env.DEBRIEF_FRONTEND_DIR;
const vectors = JSON.parse(readFileSync(join(frontend, "../tests/vectors/validation.json"), "utf8"));
const forms = Object.keys(vectors).filter((k) => k !== "about");

describe("shared validation vectors", () => {
  test("cover every form the app validates", () => {
    for (const form of Object.keys(validators)) assert.ok(forms.includes(form), `no cases for ${form}`);
  });

  test("every form of the table has a validator", () => {
    for (const form of forms) assert.ok(form in validators, `no validator for ${form}`);
  });

  for (const form of forms.filter((f) => f in validators)) {
    describe(form, () => {
      const { base, cases } = vectors[form];
      test("has cases", () => assert.ok(cases.length > 0));
      for (const c of cases) {
        test(c.case, () => {
          const input = { ...base, ...c.set };
          assert.deepEqual({ ...validators[form](input) }, c.errors);
        });
      }
    });
  }
});

describe("email rule", () => {
  test("accepts ordinary and international addresses", () => {
    for (const ok of [
      "ana@example.com",
      "ana.lopez+work@mail.example.co.uk",
      "x@b.io",
      "élodie@exemple.fr",
      "o'brien@example.ie",
      "ana@xn--bcher-kva.example",
      "ana@bücher.de",
      `${"a".repeat(64)}@example.com`,
    ]) {
      assert.equal(isEmail(ok), true, ok);
    }
  });

  test("refuses what a mail server would not take", () => {
    for (const bad of [
      "",
      "ana",
      "ana@",
      "@example.com",
      "ana@example",
      "ana@@example.com",
      "ana@b@example.com",
      "ana @example.com",
      "ana@example.c",
      "ana@example.c0m",
      "ana@-x.com",
      "ana@x-.com",
      "ana@x..com",
      "ana@.x.com",
      "a..b@example.com",
      ".ana@example.com",
      "ana.@example.com",
      "ana@example.com\r\nBcc: x@y.z",
      "ana\u00a0lopez@example.com",
      "<a>@example.com",
      'a"b@example.com',
      "a,b@example.com",
      "a;b@example.com",
      "a:b@example.com",
      "a\\b@example.com",
      "a[b]@example.com",
      "a(b)@example.com",
      "ana@exa_mple.com",
      `${"a".repeat(65)}@example.com`,
      `ana@${"b".repeat(64)}.com`,
      `${"a".repeat(60)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(63)}.com`,
    ]) {
      assert.equal(isEmail(bad), false, JSON.stringify(bad));
    }
  });

  test("counts the address in UTF-8 bytes, as the server does", () => {
    // 32 two-byte letters: 32 characters but 64 bytes, the most a local part may have.
    assert.equal(isEmail(`${"é".repeat(32)}@example.com`), true);
    assert.equal(isEmail(`${"é".repeat(33)}@example.com`), false);
  });
});

describe("web address rule", () => {
  test("accepts http(s) addresses with a real host", () => {
    for (const ok of [
      "https://www.linkedin.com/in/ana",
      "http://linkedin.com",
      "HTTPS://WWW.LINKEDIN.COM/in/Ana",
      "https://localhost:8443/x",
      "https://LOCALHOST",
      "https://192.168.1.4",
      "https://user:pw@linkedin.com:443/in/ana?x=1#top",
      "https://[::1]:8080/",
      "https://[::1]",
      "https://[2001:db8::7]:80",
      "https://[::ffff:10.0.0.1]:80",
      "https://bücher.de/",
      "https://linkedin.com?q=1",
    ]) {
      assert.equal(isWebUrl(ok), true, ok);
    }
  });

  test("refuses everything else", () => {
    for (const bad of [
      "linkedin.com/in/ana",
      "ftp://linkedin.com",
      "https://",
      "https://linkedin",
      "javascript:alert(1)",
      "https://link edin.com",
      "https://example.com:abc",
      "https://example.com:",
      "https://a..com",
      "https://.com",
      "https://exa_mple.com",
      "https://example.com\n",
      "https:/example.com",
      "https://[::1",
      "https://[::1]x",
      "https://[1::2::3]:80",
      "https://[12345::1]:80",
    ]) {
      assert.equal(isWebUrl(bad), false, JSON.stringify(bad));
    }
  });
});

describe("input handling", () => {
  test("trims Unicode white space but not the byte-order mark", () => {
    assert.equal(trimText("\u3000 Ana\u00a0\n"), "Ana");
    assert.equal(trimText("\ufeffAna"), "\ufeffAna");
    assert.equal(trimText(undefined), "");
  });

  test("passwords are not trimmed and count code points", () => {
    assert.deepEqual(validateNewPassword({ password: "  short ", confirmPassword: "  short " }), {});
    const emoji = "😀".repeat(8); // 16 UTF-16 units, 8 characters
    assert.deepEqual(validateNewPassword({ password: emoji, confirmPassword: emoji }), {});
    const long = "😀".repeat(128);
    assert.deepEqual(validateNewPassword({ password: long, confirmPassword: long }), {});
  });

  test("a missing field counts as empty", () => {
    assert.deepEqual(validateLogin({}), { email: "Invalid email address", password: "Password is required" });
    assert.equal(validateSignup({}).firstName, "First name is required");
  });

  test("control characters in any name-like field are refused", () => {
    const base = vectors.signup.base;
    for (const [field, label] of [
      ["lastName", "Last name"],
      ["company", "Company name"],
      ["position", "Position"],
    ]) {
      assert.equal(
        validateSignup({ ...base, [field]: "A\tB" })[field],
        `${label} contains characters that are not allowed`,
      );
    }
  });
});

describe("client form", () => {
  const base = vectors.client.base;

  test("control characters in company or position are refused", () => {
    assert.equal(validateClient({ ...base, company: "A\nB" }).company, "Company name contains characters that are not allowed");
    assert.equal(validateClient({ ...base, position: "A\u0007" }).position, "Position contains characters that are not allowed");
  });

  test("the fields are trimmed before they are checked", () => {
    assert.deepEqual(validateClient({ ...base, name: "  Jane  ", phone: " 5551234567 " }), {});
    assert.equal(validateClient({ ...base, name: "   " }).name, "Client name is required");
  });

  test("only one leading plus; digits are ASCII only", () => {
    assert.deepEqual(validateClient({ ...base, phone: "+44 20 7946 0958" }), {});
    assert.ok(validateClient({ ...base, phone: "++44 20 7946 0958" }).phone);
    assert.ok(validateClient({ ...base, phone: "٥٥٥١٢٣٤٥٦٧" }).phone, "Arabic-Indic digits");
  });

  test("the email's length counts characters; its parts count bytes", () => {
    // 130 two-byte letters: under 254 characters but over 254 bytes.
    const email = `${"é".repeat(60)}@${"d".repeat(60)}.com`;
    assert.equal(validateClient({ ...base, email }).email, "Please enter a valid email address (e.g., an example address)");
  });

  test("a missing field counts as empty", () => {
    assert.deepEqual(validateClient({}), {
      name: "Client name is required",
      email: "Email address is required",
      phone: "Phone number is required",
    });
  });

  test("the submit recheck wants the fields and a plain address shape", () => {
    assert.deepEqual(recheckClientOnSubmit(base), {});
    assert.deepEqual(recheckClientOnSubmit({ ...base, email: "jane@localhost" }), {
      email: "Please enter a valid email address",
    });
    assert.deepEqual(recheckClientOnSubmit({}), {
      name: "Client name is required",
      email: "Email address is required",
      phone: "Phone number is required",
    });
  });
});
