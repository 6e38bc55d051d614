// NavigationDialog is the top bar's dashboard navigation dialog: a modal, at
// most 600px wide, holding the category tree. The button is drawn by the
// server (webapp/ui/layout.templ); the island loads on its first click and
// takes it over as the dialog's trigger. The tree is read each time the
// dialog opens, and a dashboard chosen in it closes the dialog.
import { useEffect, useId, useState, type ReactNode } from "react";
import { I18nProvider } from "react-aria-components";
import { Button } from "@/components/ui/button";
import { Dialog, DialogHeading } from "@/components/ui/dialog";
import { Modal } from "@/components/ui/modal";
import { defineMessages, useIntl, type NoMessageValues } from "react-intl";
import { CategoryTree } from "@/features/dashboards/components/category-tree";

const messages = defineMessages<{ title: NoMessageValues; close: NoMessageValues }>({
  title: { id: "tree.dialog.title", defaultMessage: "Dashboards" },
  close: { id: "tree.dialog.close", defaultMessage: "Close" },
});

export interface NavigationDialogProps {
  trigger: HTMLButtonElement;
  companyId?: number;
  canEdit: boolean;
  // open opens the dialog at once: the island was loaded by a click.
  open?: boolean;
}

export function NavigationDialog({ trigger, companyId, canEdit, open = false }: NavigationDialogProps): ReactNode {
  const intl = useIntl();
  const [isOpen, setOpen] = useState(open);
  const titleId = useId();

  useEffect(() => {
    const show = (): void => setOpen(true);
    trigger.addEventListener("click", show);
    return () => trigger.removeEventListener("click", show);
  }, [trigger]);

  useEffect(() => {
    trigger.setAttribute("aria-expanded", String(isOpen));
    // The focus returns to the button when the dialog closes; React Aria
    // would go back to what had it when the dialog opened, which for a
    // pointer user is the page.
    if (!isOpen && trigger.ownerDocument.activeElement === trigger.ownerDocument.body) trigger.focus({ preventScroll: true });
  }, [trigger, isOpen]);

  return (
    <I18nProvider locale={intl.locale}>
      <Modal overlayClassName="fh-tree-modal__overlay" isOpen={isOpen} onOpenChange={setOpen} isDismissable className="fh-tree-modal fh-tree-nav">
        <Dialog className="fh-tree-modal__dialog" aria-labelledby={titleId}>
          <header className="fh-tree-nav__header">
            <DialogHeading id={titleId} className="fh-tree-modal__title">
              {intl.formatMessage(messages.title)}
            </DialogHeading>
            <Button className="fh-tree__icon-button" aria-label={intl.formatMessage(messages.close)} onPress={() => setOpen(false)}>
              <span className="mdi mdi-close" aria-hidden="true" />
            </Button>
          </header>
          <CategoryTree companyId={companyId} canEdit={canEdit} mode="dialog" onNavigate={() => setOpen(false)} />
        </Dialog>
      </Modal>
    </I18nProvider>
  );
}
