import { useId, useRef, type KeyboardEvent, type ReactNode } from "react";
import { cx } from "../lib/cx.ts";

export interface TabItem<V extends string> {
  value: V;
  label: ReactNode;
  /** Rendered only while this tab is selected. */
  panel: ReactNode;
}

interface TabsProps<V extends string> {
  /** Names the tab list for assistive technology. */
  label: string;
  tabs: Array<TabItem<V>>;
  value: V;
  onChange: (value: V) => void;
  /** Shown beside the tab list, e.g. a counter. */
  aside?: ReactNode;
  className?: string;
}

// Roving tabindex: only the selected tab is in the Tab order; arrows, Home and End
// move between tabs and select as they go.
export function Tabs<V extends string>({ label, tabs, value, onChange, aside, className }: TabsProps<V>) {
  const base = useId();
  const listRef = useRef<HTMLDivElement>(null);
  const tabId = (v: V) => `tabs-${base}-tab-${v}`;
  const panelId = (v: V) => `tabs-${base}-panel-${v}`;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = tabs.findIndex((t) => t.value === value);
    let next = -1;
    if (event.key === "ArrowRight") next = (index + 1) % tabs.length;
    else if (event.key === "ArrowLeft") next = (index - 1 + tabs.length) % tabs.length;
    else if (event.key === "Home") next = 0;
    else if (event.key === "End") next = tabs.length - 1;
    if (next < 0) return;
    event.preventDefault();
    const target = tabs[next].value;
    onChange(target);
    listRef.current?.querySelector<HTMLElement>(`#${CSS.escape(tabId(target))}`)?.focus();
  };

  return (
    <div className={cx("tabs", className)}>
      <div className="tabs__bar">
        <div ref={listRef} role="tablist" aria-label={label} className="tabs__list" onKeyDown={onKeyDown}>
          {tabs.map((tab) => {
            const selected = tab.value === value;
            return (
              <button
                key={tab.value}
                type="button"
                role="tab"
                id={tabId(tab.value)}
                aria-selected={selected}
                aria-controls={panelId(tab.value)}
                tabIndex={selected ? 0 : -1}
                className="tabs__tab"
                onClick={() => onChange(tab.value)}
              >
                {tab.label}
              </button>
            );
          })}
        </div>
        {aside && <div className="tabs__aside">{aside}</div>}
      </div>
      {tabs.map((tab) => {
        const selected = tab.value === value;
        return (
          <div
            key={tab.value}
            role="tabpanel"
            id={panelId(tab.value)}
            aria-labelledby={tabId(tab.value)}
            tabIndex={0}
            hidden={!selected}
            className="tabs__panel"
          >
            {selected && tab.panel}
          </div>
        );
      })}
    </div>
  );
}
