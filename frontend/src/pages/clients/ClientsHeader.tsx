import { Link, useLocation } from "wouter";
import { LogoIcon, SettingsIcon } from "../../components/icons.tsx";

/**
 * The top of New Client and History: the product's mark, the settings icon (the
 * profile) and the two views as tabs. The tabs are links: each view has its address.
 */
export function ClientsHeader() {
  const [path] = useLocation();
  return (
    <header className="clients-header">
      <div className="clients-header__bar">
        <span className="clients-header__brand">
          <LogoIcon size={26} />
          <span>Debrief</span>
        </span>
        <Link href="/profile" className="icon-btn clients-header__settings" aria-label="Settings">
          <SettingsIcon />
        </Link>
      </div>
      <nav className="view-tabs" aria-label="Client views">
        <Link href="/" className="view-tabs__tab" aria-current={path === "/" ? "page" : undefined}>
          New Client
        </Link>
        <Link href="/history" className="view-tabs__tab" aria-current={path === "/history" ? "page" : undefined}>
          History
        </Link>
      </nav>
    </header>
  );
}
