// The forms' rules, the same as the server's: same checks, same order, same
// messages (spec section 5). tests/vectors/validation.json holds the cases both sides
// run. Each validator returns the first failing message of every field, `{}` when the
// input is valid. Lengths count Unicode code points; text fields are trimmed, passwords
// are taken as typed.

export type FieldErrors<F extends string = string> = Partial<Record<F, string>>;

export const TEXT_MAX = 100;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const EMAIL_MAX = 254;

const WHITESPACE = /\p{White_Space}/u;
const CONTROL = /\p{Cc}/u;
const EDGE_WHITESPACE = /^\p{White_Space}+|\p{White_Space}+$/gu;
const LETTER = /^\p{Alphabetic}$/u;
const LETTER_OR_DIGIT = /^[\p{Alphabetic}\p{N}]$/u;
const LOCAL_FORBIDDEN = /[<>()[\],;:\\"]/;

const encoder = new TextEncoder();

/** Length in code points, as the server counts characters. */
export function charCount(s: string): number {
  return [...s].length;
}

/** UTF-8 length: the server measures the email's parts in bytes. */
function byteCount(s: string): number {
  return encoder.encode(s).length;
}

/** Trims Unicode white space (not the byte-order mark, which is not white space). */
export function trimText(value: unknown): string {
  return typeof value === "string" ? value.replace(EDGE_WHITESPACE, "") : "";
}

function rawText(value: unknown): string {
  return typeof value === "string" ? value : "";
}

export function hasControlChars(s: string): boolean {
  return CONTROL.test(s);
}

function hasSpaceOrControl(s: string): boolean {
  return WHITESPACE.test(s) || CONTROL.test(s);
}

const every = (s: string, re: RegExp) => [...s].every((c) => re.test(c));

/**
 * A mailbox a mail server will accept: one `@`; a local part of 1–64 bytes without
 * spaces, edge or double dots, or `<>()[],;:\"`; a domain of at least two labels of
 * letters, digits and hyphens, the last one at least two letters.
 */
export function isEmail(email: string): boolean {
  if (byteCount(email) > EMAIL_MAX || hasSpaceOrControl(email)) return false;
  const at = email.indexOf("@");
  if (at < 0) return false;
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (local === "" || byteCount(local) > 64 || domain.includes("@")) return false;
  if (local.startsWith(".") || local.endsWith(".") || local.includes("..") || LOCAL_FORBIDDEN.test(local)) {
    return false;
  }
  const labels = domain.split(".");
  const labelOk = (l: string) =>
    l !== "" &&
    byteCount(l) <= 63 &&
    !l.startsWith("-") &&
    !l.endsWith("-") &&
    [...l].every((c) => c === "-" || LETTER_OR_DIGIT.test(c));
  const tld = labels[labels.length - 1];
  const tldOk = charCount(tld) >= 2 && every(tld, LETTER);
  return labels.length >= 2 && labels.every(labelOk) && tldOk;
}

/**
 * An absolute web address: `http(s)://[userinfo@]host[:port][/…]` where the host is an
 * IP address, `localhost`, or at least two dot-separated labels of letters, digits and
 * hyphens.
 */
export function isWebUrl(url: string): boolean {
  if (hasSpaceOrControl(url)) return false;
  const lower = url.replace(/[A-Z]+/g, (s) => s.toLowerCase());
  let rest: string;
  if (lower.startsWith("https://")) rest = lower.slice(8);
  else if (lower.startsWith("http://")) rest = lower.slice(7);
  else return false;
  const authority = rest.split(/[/?#]/)[0];
  const at = authority.lastIndexOf("@");
  const hostPort = at < 0 ? authority : authority.slice(at + 1);
  let host: string;
  let port = "";
  if (hostPort.startsWith("[")) {
    // "[v6]" or "[v6]:port"
    const close = hostPort.indexOf("]");
    if (close < 0) return false;
    host = hostPort.slice(1, close);
    const after = hostPort.slice(close + 1);
    if (after !== "") {
      if (!after.startsWith(":")) return false;
      port = after.slice(1);
      if (!/^[0-9]+$/.test(port)) return false;
    }
  } else {
    const colon = hostPort.lastIndexOf(":");
    host = colon < 0 ? hostPort : hostPort.slice(0, colon);
    if (colon >= 0 && !/^[0-9]+$/.test(hostPort.slice(colon + 1))) return false;
  }
  if (host === "localhost" || isIpv4(host) || isIpv6(host)) return true;
  const labels = host.split(".");
  return labels.length >= 2 && labels.every((l) => l !== "" && [...l].every((c) => c === "-" || LETTER_OR_DIGIT.test(c)));
}

/** Dotted-quad IPv4: four decimal parts 0–255, no leading zeros. */
export function isIpv4(s: string): boolean {
  const parts = s.split(".");
  return (
    parts.length === 4 &&
    parts.every((p) => /^(0|[1-9][0-9]{0,2})$/.test(p) && Number(p) <= 255)
  );
}

/** IPv6 text form: up to eight hex groups, one `::` standing for at least one group, an optional IPv4 tail. */
export function isIpv6(s: string): boolean {
  const group = /^[0-9a-fA-F]{1,4}$/;
  const countGroups = (part: string, allowV4Tail: boolean): number => {
    if (part === "") return 0;
    const items = part.split(":");
    let n = 0;
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (allowV4Tail && i === items.length - 1 && item.includes(".")) {
        if (!isIpv4(item)) return -1;
        n += 2;
      } else if (group.test(item)) {
        n += 1;
      } else {
        return -1;
      }
    }
    return n;
  };
  const gap = s.indexOf("::");
  if (gap < 0) return countGroups(s, true) === 8;
  if (s.indexOf("::", gap + 1) >= 0) return false;
  const head = s.slice(0, gap);
  const tail = s.slice(gap + 2);
  const h = countGroups(head, false);
  const t = countGroups(tail, true);
  if (h < 0 || t < 0) return false;
  return h + t <= 7;
}

class Collector<F extends string> {
  readonly errors: FieldErrors<F> = {};
  check(failed: boolean, field: F, message: string): void {
    if (failed && this.errors[field] === undefined) this.errors[field] = message;
  }
}

function required<F extends string>(c: Collector<F>, field: F, value: string, label: string, missing: string) {
  c.check(value === "", field, missing);
  c.check(charCount(value) > TEXT_MAX, field, `${label} must be less than ${TEXT_MAX} characters`);
  c.check(hasControlChars(value), field, `${label} contains characters that are not allowed`);
}

function atLeastTwo<F extends string>(c: Collector<F>, field: F, value: string, label: string) {
  const n = charCount(value);
  c.check(n < 2, field, `${label} must be at least 2 characters`);
  c.check(n > TEXT_MAX, field, `${label} must be less than ${TEXT_MAX} characters`);
  c.check(hasControlChars(value), field, `${label} contains characters that are not allowed`);
}

function newPasswordRules<F extends string>(c: Collector<F | "password" | "confirmPassword">, password: string, confirm: string) {
  const n = charCount(password);
  c.check(n < PASSWORD_MIN, "password", "Password must be at least 8 characters");
  c.check(n > PASSWORD_MAX, "password", "Password must be at most 128 characters");
  c.check(confirm === "", "confirmPassword", "Please confirm your password");
  c.check(confirm !== password, "confirmPassword", "Passwords do not match");
}

export type SignupField =
  | "firstName"
  | "lastName"
  | "email"
  | "password"
  | "confirmPassword"
  | "company"
  | "position"
  | "linkedinUrl";
export type SignupInput = Partial<Record<SignupField, string>>;

export function validateSignup(input: SignupInput): FieldErrors<SignupField> {
  const c = new Collector<SignupField>();
  const email = trimText(input.email);
  const linkedin = trimText(input.linkedinUrl);
  const password = rawText(input.password);
  required(c, "firstName", trimText(input.firstName), "First name", "First name is required");
  required(c, "lastName", trimText(input.lastName), "Last name", "Last name is required");
  c.check(email === "", "email", "Email is required");
  c.check(!isEmail(email), "email", "Invalid email address");
  newPasswordRules(c, password, rawText(input.confirmPassword));
  required(c, "company", trimText(input.company), "Company name", "Company is required");
  required(c, "position", trimText(input.position), "Position", "Position is required");
  c.check(linkedin !== "" && !isWebUrl(linkedin), "linkedinUrl", "Invalid LinkedIn URL");
  return c.errors;
}

export type LoginField = "email" | "password";
export type LoginInput = Partial<Record<LoginField, string>>;

export function validateLogin(input: LoginInput): FieldErrors<LoginField> {
  const c = new Collector<LoginField>();
  const password = rawText(input.password);
  c.check(!isEmail(trimText(input.email)), "email", "Invalid email address");
  c.check(password === "", "password", "Password is required");
  c.check(charCount(password) > PASSWORD_MAX, "password", "Password must be at most 128 characters");
  return c.errors;
}

export type ProfileField = "firstName" | "lastName" | "email" | "company" | "position" | "linkedinUrl";
export type ProfileInput = Partial<Record<ProfileField, string>>;

export function validateProfile(input: ProfileInput): FieldErrors<ProfileField> {
  const c = new Collector<ProfileField>();
  const linkedin = trimText(input.linkedinUrl);
  atLeastTwo(c, "firstName", trimText(input.firstName), "First name");
  atLeastTwo(c, "lastName", trimText(input.lastName), "Last name");
  c.check(!isEmail(trimText(input.email)), "email", "Please enter a valid email");
  atLeastTwo(c, "company", trimText(input.company), "Company name");
  atLeastTwo(c, "position", trimText(input.position), "Position");
  c.check(linkedin !== "" && !isWebUrl(linkedin), "linkedinUrl", "Please enter a valid LinkedIn URL");
  return c.errors;
}

export type ResetRequestField = "email";
export type ResetRequestInput = Partial<Record<ResetRequestField, string>>;

export function validateResetRequest(input: ResetRequestInput): FieldErrors<ResetRequestField> {
  const c = new Collector<ResetRequestField>();
  c.check(!isEmail(trimText(input.email)), "email", "Please enter a valid email address");
  return c.errors;
}

export type NewPasswordField = "password" | "confirmPassword";
export type NewPasswordInput = Partial<Record<NewPasswordField, string>>;

export function validateNewPassword(input: NewPasswordInput): FieldErrors<NewPasswordField> {
  const c = new Collector<NewPasswordField>();
  newPasswordRules(c, rawText(input.password), rawText(input.confirmPassword));
  return c.errors;
}

export const PHONE_MIN = 10;
export const PHONE_MAX = 20;
/** The server's limit on a client photo, in data-URL characters. */
export const PHOTO_MAX_CHARS = 1_000_000;
export const PHOTO_TOO_LARGE = "Photo size is too large. Please use a smaller image or compress the photo.";

export type ClientField = "name" | "email" | "phone" | "company" | "position";
export type ClientInput = Partial<Record<ClientField, string>>;

const NAME_CHAR = /^[\p{Alphabetic} '’.-]$/u;

/** Digits, spaces, hyphens, parentheses and periods, after one optional leading plus. */
function isPhone(phone: string): boolean {
  const digits = phone.startsWith("+") ? phone.slice(1) : phone;
  return /^[0-9 ().-]*$/.test(digits);
}

/** The client form and the client edit dialog (src/domain/client.rs). */
export function validateClient(input: ClientInput): FieldErrors<ClientField> {
  const c = new Collector<ClientField>();
  const name = trimText(input.name);
  const email = trimText(input.email);
  const phone = trimText(input.phone);
  const company = trimText(input.company);
  const position = trimText(input.position);
  c.check(name === "", "name", "Client name is required");
  c.check(charCount(name) > TEXT_MAX, "name", "Name must be less than 100 characters");
  c.check(!every(name, NAME_CHAR), "name", "Name can only contain letters, spaces, hyphens, apostrophes, and periods");
  c.check(email === "", "email", "Email address is required");
  c.check(charCount(email) > EMAIL_MAX, "email", "Email address is too long");
  c.check(!isEmail(email), "email", "Please enter a valid email address (e.g., an example address)");
  c.check(phone === "", "phone", "Phone number is required");
  c.check(charCount(phone) < PHONE_MIN, "phone", "Phone number must be at least 10 digits");
  c.check(charCount(phone) > PHONE_MAX, "phone", "Phone number is too long");
  c.check(
    !isPhone(phone),
    "phone",
    "Phone number can only contain numbers, spaces, hyphens, parentheses, plus sign, and periods",
  );
  c.check(charCount(company) > TEXT_MAX, "company", "Company name must be less than 100 characters");
  c.check(hasControlChars(company), "company", "Company name contains characters that are not allowed");
  c.check(charCount(position) > TEXT_MAX, "position", "Position must be less than 100 characters");
  c.check(hasControlChars(position), "position", "Position contains characters that are not allowed");
  return c.errors;
}

const SIMPLE_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The client form's last look before it is sent (spec section 5): name, email and
 * phone present, and the email of the plain `someone@host.tld` shape.
 */
export function recheckClientOnSubmit(input: ClientInput): FieldErrors<ClientField> {
  const c = new Collector<ClientField>();
  const email = trimText(input.email);
  c.check(trimText(input.name) === "", "name", "Client name is required");
  c.check(email === "", "email", "Email address is required");
  c.check(!SIMPLE_EMAIL.test(email), "email", "Please enter a valid email address");
  c.check(trimText(input.phone) === "", "phone", "Phone number is required");
  return c.errors;
}

/** The validators by the names the shared test vectors use. */
export const validators = {
  signup: validateSignup,
  login: validateLogin,
  profile: validateProfile,
  resetRequest: validateResetRequest,
  newPassword: validateNewPassword,
  client: validateClient,
} as const;

export type FormName = keyof typeof validators;
