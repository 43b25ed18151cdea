import { Link, useLocation } from "wouter";
import type { ReactNode } from "react";
import { ChartIcon, ClockIcon, PlusCircleIcon, UserIcon } from "./icons.tsx";

interface NavLinkProps {
  href: string;
  active: boolean;
  icon: ReactNode;
  label: string;
}

function NavLink({ href, active, icon, label }: NavLinkProps) {
  return (
    <li>
      <Link href={href} className="bottom-nav__item" aria-current={active ? "page" : undefined}>
        {icon}
        <span>{label}</span>
      </Link>
    </li>
  );
}

export function BottomNav() {
  const [path] = useLocation();
  const historyActive = path === "/history" || path.startsWith("/client/");
  return (
    <nav className="bottom-nav" aria-label="Main">
      <ul className="bottom-nav__list">
        <NavLink href="/" active={path === "/"} icon={<PlusCircleIcon />} label="New" />
        <NavLink href="/history" active={historyActive} icon={<ClockIcon />} label="History" />
        <NavLink href="/insights" active={path === "/insights"} icon={<ChartIcon />} label="Insights" />
        <NavLink href="/profile" active={path === "/profile"} icon={<UserIcon />} label="Profile" />
      </ul>
    </nav>
  );
}
