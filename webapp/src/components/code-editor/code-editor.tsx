// CodeEditor is a monospace text area with line numbers for a codec's or
// a script's source. Once the user works in it (a key other than Tab, or a click), Tab
// indents the selected lines (Shift+Tab outdents) and Enter keeps the line's
// indentation; Escape hands Tab back to the page, so the editor is never a
// keyboard trap: tabbing through the page passes it, and the hint under it
// says how to leave.
import { useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import "@/components/code-editor/code-editor.css";

const indent = "  ";

export interface CodeEditorProps {
  label: string;
  hint: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
}

export function CodeEditor({ label, hint, value, onChange, error }: CodeEditorProps): ReactNode {
  const id = useId();
  const area = useRef<HTMLTextAreaElement>(null);
  const gutter = useRef<HTMLDivElement>(null);
  // engaged is set while the user works in the editor: only then does Tab
  // indent.
  const [engaged, setEngaged] = useState(false);
  const lines = useMemo(() => value.split("\n").length, [value]);
  const numbers = useMemo(() => Array.from({ length: lines }, (_, i) => i + 1).join("\n"), [lines]);

  // edit replaces the text between start and end and puts the selection
  // where it belongs afterwards.
  const edit = (text: string, start: number, end: number, selStart: number, selEnd: number): void => {
    onChange(value.slice(0, start) + text + value.slice(end));
    requestAnimationFrame(() => area.current?.setSelectionRange(selStart, selEnd));
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>): void => {
    const el = e.currentTarget;
    const { selectionStart: s, selectionEnd: t } = el;
    if (e.key === "Escape") {
      setEngaged(false);
      return;
    }
    if (e.key === "Tab" && engaged && !e.altKey && !e.ctrlKey && !e.metaKey) {
      e.preventDefault();
      const lineStart = value.lastIndexOf("\n", s - 1) + 1;
      if (!e.shiftKey && s === t) {
        edit(indent, s, t, s + indent.length, s + indent.length);
        return;
      }
      const block = value.slice(lineStart, t);
      const rows = block.split("\n");
      const changed = e.shiftKey
        ? rows.map((r) => (r.startsWith(indent) ? r.slice(indent.length) : r.replace(/^ /, "")))
        : rows.map((r) => indent + r);
      const text = changed.join("\n");
      const firstDelta = changed[0]!.length - rows[0]!.length;
      edit(text, lineStart, t, Math.max(lineStart, s + firstDelta), t + text.length - block.length);
      return;
    }
    if (e.key === "Enter" && !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey) {
      const lineStart = value.lastIndexOf("\n", s - 1) + 1;
      const lead = /^[ \t]*/.exec(value.slice(lineStart, s))?.[0] ?? "";
      if (lead !== "") {
        e.preventDefault();
        const text = "\n" + lead;
        edit(text, s, t, s + text.length, s + text.length);
      }
    }
    if (e.key !== "Tab" && e.key !== "Shift") setEngaged(true);
  };

  return (
    <div className="fh-code">
      <label className="fh-code__label" htmlFor={id}>
        {label}
      </label>
      <div className={"fh-code__frame" + (error ? " fh-code__frame--invalid" : "")}>
        <div className="fh-code__gutter" ref={gutter} aria-hidden="true">
          {numbers}
        </div>
        <textarea
          id={id}
          ref={area}
          className="fh-code__area"
          value={value}
          spellCheck={false}
          autoCapitalize="off"
          autoComplete="off"
          autoCorrect="off"
          wrap="off"
          aria-describedby={`${id}-hint` + (error ? ` ${id}-error` : "")}
          aria-invalid={error ? true : undefined}
          onChange={(e) => onChange(e.target.value)}
          onKeyDown={onKeyDown}
          onBlur={() => setEngaged(false)}
          onPointerDown={() => setEngaged(true)}
          onScroll={(e) => {
            if (gutter.current) gutter.current.scrollTop = e.currentTarget.scrollTop;
          }}
        />
      </div>
      <p className="fh-code__hint" id={`${id}-hint`}>
        {hint}
      </p>
      {error ? (
        <p className="fh-code__error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
