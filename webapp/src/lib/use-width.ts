// useWidth measures an element's content width as it changes: the ref goes
// on the element, and the width is 0 until it is in the page.
import { useCallback, useRef, useState } from "react";

export function useWidth(): [(el: HTMLElement | null) => void, number] {
  const [width, setWidth] = useState(0);
  const observer = useRef<ResizeObserver | null>(null);
  const ref = useCallback((el: HTMLElement | null) => {
    observer.current?.disconnect();
    observer.current = null;
    if (!el) return;
    setWidth(Math.floor(el.clientWidth));
    observer.current = new ResizeObserver((entries) => {
      const w = entries[0]?.contentRect.width;
      if (w !== undefined) setWidth(Math.floor(w));
    });
    observer.current.observe(el);
  }, []);
  return [ref, width];
}
