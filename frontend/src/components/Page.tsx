import { useEffect, useRef, type ReactNode } from "react";
import { cx } from "../lib/cx.ts";

let firstPage = true;

interface PageProps {
  /** Names the document; also the page's h1 unless the page draws its own. */
  title: string;
  /** The page renders its own h1 (e.g. as a card title) instead of the plain one. */
  ownHeading?: boolean;
  className?: string;
  children?: ReactNode;
}

// Every screen starts with this: it names the document and, after a client-side
// navigation, moves focus to the new h1 so screen readers announce the page.
export function Page({ title, ownHeading, className, children }: PageProps) {
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    document.title = `${title} · Debrief`;
    if (firstPage) {
      firstPage = false;
      return;
    }
    const h1 = root.current?.querySelector("h1");
    if (h1) {
      h1.tabIndex = -1;
      h1.focus();
    }
  }, [title]);
  return (
    <div ref={root} className={cx("page", className)}>
      {!ownHeading && <h1 className="page__title">{title}</h1>}
      {children}
    </div>
  );
}
