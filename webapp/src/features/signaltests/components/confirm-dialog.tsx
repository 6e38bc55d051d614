// ConfirmDialog asks before a test is deleted or completed: a modal alert
// dialog whose Cancel has the focus, so that Enter does not destroy by
// accident; Escape cancels.
import { useState, type ReactNode } from "react";
import { useIntl } from "react-intl";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions, DialogHeading } from "@/components/ui/dialog";
import { Modal } from "@/components/ui/modal";
import { msg } from "@/features/signaltests/utils/messages";

export interface ConfirmDialogProps {
  title: string;
  text: string;
  confirm: string;
  danger?: boolean;
  onClose: () => void;
  // onConfirm does the work; the dialog closes when it settles.
  onConfirm: () => Promise<void>;
}

export function ConfirmDialog({ title, text, confirm, danger, onClose, onConfirm }: ConfirmDialogProps): ReactNode {
  const intl = useIntl();
  const [busy, setBusy] = useState(false);
  return (
    <Modal overlayClassName="fh-st-overlay" className="fh-st-modal" isOpen isDismissable={!busy} onOpenChange={(open) => !open && onClose()}>
      <Dialog className="fh-st-dialog" role="alertdialog">
        {({ close }) => (
          <>
            <DialogHeading className="fh-st-dialog__title">{title}</DialogHeading>
            <p>{text}</p>
            <DialogActions className="fh-st-dialog__actions">
              <Button className="button secondary" onPress={close} autoFocus isDisabled={busy}>
                {intl.formatMessage(msg.cancel)}
              </Button>
              <Button
                className={danger ? "button danger" : "button"}
                isDisabled={busy}
                onPress={() => {
                  setBusy(true);
                  void onConfirm().finally(() => {
                    setBusy(false);
                    close();
                  });
                }}
              >
                {confirm}
              </Button>
            </DialogActions>
          </>
        )}
      </Dialog>
    </Modal>
  );
}
