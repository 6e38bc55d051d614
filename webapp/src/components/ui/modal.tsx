// Modal is the overlay that dims the page and the box in it that holds a
// Dialog (dialog.tsx): Escape and a click outside close it when allowed.
// It is apart from dialog.tsx so that a dialog in a popover does not load it.
import type { CSSProperties, ReactNode } from "react";
import { Modal as AriaModal, ModalOverlay, type ModalOverlayProps } from "react-aria-components";

export interface ModalProps extends Omit<ModalOverlayProps, "className" | "style" | "children"> {
  // overlayClassName styles the backdrop, className the box.
  overlayClassName: string;
  className: string;
  style?: CSSProperties;
  children: ReactNode;
  // Attributes of the box, such as data-width.
  boxProps?: Record<`data-${string}`, string | number>;
}

export function Modal({ overlayClassName, className, style, children, boxProps, ...overlay }: ModalProps): ReactNode {
  return (
    <ModalOverlay className={overlayClassName} {...overlay}>
      <AriaModal className={className} style={style} {...boxProps}>
        {children}
      </AriaModal>
    </ModalOverlay>
  );
}
