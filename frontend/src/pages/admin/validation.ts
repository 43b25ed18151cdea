// The admin forms' rules, the same as the server's (src/http/admin/login.rs,
// src/domain/template.rs and src/domain/retention.rs): same checks, same order, same
// messages (spec section 5).
// Each validator returns the first failing message of every field, `{}` when valid.

import { charCount, hasControlChars, PASSWORD_MAX, trimText, type FieldErrors } from "../../lib/validation.ts";

export type AdminLoginField = "username" | "password";

export function validateAdminLogin(input: Partial<Record<AdminLoginField, string>>): FieldErrors<AdminLoginField> {
  const errors: FieldErrors<AdminLoginField> = {};
  const password = typeof input.password === "string" ? input.password : "";
  if (trimText(input.username) === "") errors.username = "Username is required";
  if (password === "") errors.password = "Password is required";
  else if (charCount(password) > PASSWORD_MAX) errors.password = "Password must be at most 128 characters";
  return errors;
}

/** The fields of the Email Template form, in the order they are shown. */
export const TEMPLATE_FIELDS = [
  "fromName",
  "emailTitle",
  "firstContentSection",
  "secondContentSection",
  "thirdContentSection",
] as const;

export type TemplateField = (typeof TEMPLATE_FIELDS)[number];
export type TemplateValues = Record<TemplateField, string>;

export const FROM_NAME_MAX = 100;
export const EMAIL_TITLE_MAX = 200;

/**
 * The template form. The template's `name` is not on the form (it stays `default`),
 * so its two rules are the server's alone.
 */
export function validateTemplate(input: Partial<TemplateValues>): FieldErrors<TemplateField> {
  const errors: FieldErrors<TemplateField> = {};
  const check = (failed: boolean, field: TemplateField, message: string) => {
    if (failed && errors[field] === undefined) errors[field] = message;
  };
  const fromName = trimText(input.fromName);
  const emailTitle = trimText(input.emailTitle);
  check(fromName === "", "fromName", "From name is required");
  check(charCount(fromName) > FROM_NAME_MAX, "fromName", "From name must be less than 100 characters");
  // Both reach mail headers: no line breaks or other control characters.
  check(hasControlChars(fromName), "fromName", "From name contains characters that are not allowed");
  check(emailTitle === "", "emailTitle", "Email title is required");
  check(charCount(emailTitle) > EMAIL_TITLE_MAX, "emailTitle", "Email title must be less than 200 characters");
  check(hasControlChars(emailTitle), "emailTitle", "Email title contains characters that are not allowed");
  check(trimText(input.firstContentSection) === "", "firstContentSection", "First content section is required");
  check(trimText(input.secondContentSection) === "", "secondContentSection", "Second content section is required");
  check(trimText(input.thirdContentSection) === "", "thirdContentSection", "Third content section is required");
  return errors;
}

/** Most days recordings may be kept: ten years. Longer is for good, the field left empty. */
const RETENTION_DAYS_MAX = 3650;

/**
 * The retention field as the days to send: null (empty) keeps recordings for good;
 * NaN when it is not a whole number (sent, JSON would make it null: for good).
 */
export function retentionDays(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  return /^\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

export function validateRetention(input: { days: string }): FieldErrors<"days"> {
  const days = retentionDays(input.days);
  if (days === null || (days >= 1 && days <= RETENTION_DAYS_MAX)) return {};
  return { days: "Keep recordings between 1 and 3650 days, or leave the field empty to keep them for good" };
}
