import './tabs.css';
import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

export interface Tab {
  id: string;
  label: string;
  content: ReactNode;
}

/**
 * Tabs as the WAI-ARIA Authoring Practices describe them: one tab stop for the tab list, the
 * arrow keys (and Home, End) move between tabs and select them. Only the selected panel's content
 * is rendered.
 */
export function Tabs({ label, tabs }: { label: string; tabs: readonly Tab[] }) {
  const [selected, setSelected] = useState(tabs[0]?.id ?? '');
  const baseId = useId();
  const tabRefs = useRef(new Map<string, HTMLButtonElement>());
  const current = tabs.some((tab) => tab.id === selected) ? selected : (tabs[0]?.id ?? '');

  const select = (index: number) => {
    const tab = tabs[(index + tabs.length) % tabs.length];
    if (!tab) return;
    setSelected(tab.id);
    tabRefs.current.get(tab.id)?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const moves: Record<string, number> = {
      ArrowRight: index + 1,
      ArrowLeft: index - 1,
      Home: 0,
      End: tabs.length - 1,
    };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    select(target);
  };

  return (
    <div className="tabs">
      <div role="tablist" aria-label={label} className="tab-list">
        {tabs.map((tab, index) => (
          <button
            key={tab.id}
            ref={(element) => {
              if (element) tabRefs.current.set(tab.id, element);
              else tabRefs.current.delete(tab.id);
            }}
            type="button"
            role="tab"
            id={`${baseId}-${tab.id}-tab`}
            aria-selected={tab.id === current}
            aria-controls={`${baseId}-${tab.id}-panel`}
            tabIndex={tab.id === current ? 0 : -1}
            className="tab"
            onClick={() => setSelected(tab.id)}
            onKeyDown={(event) => onKeyDown(event, index)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {tabs.map((tab) => (
        <div
          key={tab.id}
          role="tabpanel"
          id={`${baseId}-${tab.id}-panel`}
          aria-labelledby={`${baseId}-${tab.id}-tab`}
          hidden={tab.id !== current}
          className="tab-panel"
        >
          {tab.id === current && tab.content}
        </div>
      ))}
    </div>
  );
}
