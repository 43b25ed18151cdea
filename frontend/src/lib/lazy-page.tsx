import { useEffect, useState, type ComponentType, type FunctionComponent } from "react";
import { FullScreenSpinner } from "../components/Spinner.tsx";
import { PageLoadError } from "../components/PageLoadError.tsx";

export interface LazyPage extends FunctionComponent<Record<string, unknown>> {
  /** Start fetching the page's code now (e.g. while the session is being checked). */
  preload(): Promise<void>;
}

// Each screen is its own chunk so the first page loads only what it shows.
export function lazyPage(load: () => Promise<{ default: ComponentType<any> }>): LazyPage {
  let Component: ComponentType<any> | null = null;
  let pending: Promise<void> | null = null;
  let failed = false;

  const preload = () => {
    pending ??= load().then(
      (mod) => {
        Component = mod.default;
        failed = false;
      },
      () => {
        failed = true;
        pending = null;
      },
    );
    return pending;
  };

  function Lazy(props: Record<string, unknown>) {
    const [, rerender] = useState(0);
    const shown = Component !== null;
    useEffect(() => {
      // The code may arrive between this render and the effect: ask for a new render
      // whenever this one went without it.
      if (!shown && !failed) void preload().then(() => rerender((n) => n + 1));
    }, [shown]);
    if (Component) return <Component {...props} />;
    if (failed) {
      return (
        <PageLoadError
          onRetry={() => {
            failed = false;
            void preload().then(() => rerender((n) => n + 1));
            rerender((n) => n + 1);
          }}
        />
      );
    }
    return <FullScreenSpinner />;
  }
  Lazy.preload = preload;
  return Lazy;
}
