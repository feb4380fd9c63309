"use client";

import { useId, useRef, useState, type KeyboardEvent } from "react";
import { suggest, type Suggestion } from "@/src/core/search/suggest";

/**
 * The issue stream's query input with a suggestion list under it (WAI-ARIA combobox:
 * https://www.w3.org/WAI/ARIA/apg/patterns/combobox/). Arrow keys move, Enter or a click
 * chooses, Escape closes; with the list closed Enter submits the form as before. The tag
 * values come with the page (topTagValues), so typing makes no requests.
 */
export function SearchBox({
  defaultValue,
  tagValues,
  placeholder,
}: {
  defaultValue: string;
  tagValues: Record<string, string[]>;
  placeholder: string;
}) {
  const [value, setValue] = useState(defaultValue);
  const [items, setItems] = useState<Suggestion[]>([]);
  const [active, setActive] = useState(-1);
  const input = useRef<HTMLInputElement>(null);
  const listId = useId();

  const refresh = (text: string, caret: number) => {
    setItems(suggest(text, caret, tagValues));
    setActive(-1);
  };
  const choose = (s: Suggestion) => {
    setValue(s.text);
    // Choosing a key opens its values at once; choosing a value closes the list.
    refresh(s.text, s.caret);
    requestAnimationFrame(() => {
      input.current?.focus();
      input.current?.setSelectionRange(s.caret, s.caret);
    });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (items.length === 0) return;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      const step = e.key === "ArrowDown" ? 1 : -1;
      // -1 is "no option": moving past either end returns to the text as typed.
      setActive((a) => ((a + 1 + step + items.length + 1) % (items.length + 1)) - 1);
    } else if (e.key === "Enter" && active >= 0 && items[active]) {
      e.preventDefault();
      choose(items[active]);
    } else if (e.key === "Escape") {
      setItems([]);
    }
  };

  return (
    <div className="search-box">
      <input
        ref={input}
        name="query"
        value={value}
        placeholder={placeholder}
        aria-label="Search"
        data-testid="search"
        autoComplete="off"
        role="combobox"
        aria-expanded={items.length > 0}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={active >= 0 ? `${listId}-${active}` : undefined}
        onChange={(e) => {
          setValue(e.target.value);
          refresh(e.target.value, e.target.selectionStart ?? e.target.value.length);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setItems([])}
      />
      {items.length > 0 && (
        <ul className="search-suggestions" role="listbox" id={listId} data-testid="search-suggestions">
          {items.map((s, i) => (
            <li
              key={s.label}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              // mousedown, not click: it runs before the input's blur closes the list.
              onMouseDown={(e) => {
                e.preventDefault();
                choose(s);
              }}
            >
              {s.label}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
