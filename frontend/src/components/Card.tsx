import type { HTMLAttributes, ReactNode } from "react";
import { cx } from "../lib/cx.ts";
import type { WithClass } from "../lib/props.ts";

export function Card({ className, ...rest }: WithClass<HTMLAttributes<HTMLDivElement>>) {
  return <div {...rest} className={cx("card", className)} />;
}

interface CardHeaderProps {
  title: ReactNode;
  description?: ReactNode;
  /** Heading level that fits where the card sits in the page outline. */
  level?: 1 | 2 | 3;
  id?: string;
}

export function CardHeader({ title, description, level = 2, id }: CardHeaderProps) {
  const Heading = `h${level}` as "h1" | "h2" | "h3";
  return (
    <div className="card__header">
      <Heading className="card__title" id={id}>
        {title}
      </Heading>
      {description && <p className="card__description">{description}</p>}
    </div>
  );
}
