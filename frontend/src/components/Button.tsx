import type { ButtonHTMLAttributes, MouseEvent } from "react";
import { cx } from "../lib/cx.ts";
import type { WithClass } from "../lib/props.ts";
import { Spinner } from "./Spinner.tsx";

export type ButtonVariant = "primary" | "secondary" | "outline" | "ghost" | "destructive";

export type ButtonProps = WithClass<ButtonHTMLAttributes<HTMLButtonElement>> & {
  variant?: ButtonVariant;
  size?: "md" | "sm" | "icon";
  block?: boolean;
  /** Work in progress: shows a spinner and ignores presses but keeps focus where it is. */
  busy?: boolean;
};

export function Button({
  variant = "primary",
  size = "md",
  block,
  busy = false,
  type = "button",
  className,
  children,
  onClick,
  ...rest
}: ButtonProps) {
  const handleClick = (event: MouseEvent<HTMLButtonElement>) => {
    if (busy) {
      event.preventDefault();
      return;
    }
    onClick?.(event);
  };
  return (
    <button
      {...rest}
      type={type}
      className={cx("btn", `btn--${variant}`, `btn--${size}`, block && "btn--block", className)}
      aria-busy={busy || undefined}
      aria-disabled={busy || undefined}
      onClick={handleClick}
    >
      {busy && <Spinner size="sm" />}
      {children}
    </button>
  );
}
