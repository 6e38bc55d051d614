// The category tree's dialogs: create or edit a category (600 wide: title,
// colour, icon), create or copy a dashboard (450 wide: name) and the removal
// confirmation (450 wide). Each one calls the API itself through onSubmit and
// stays open with the server's message when the call is refused.
import { useState, type FormEvent, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions, DialogHeading } from "@/components/ui/dialog";
import { Modal } from "@/components/ui/modal";
import { FieldError, Input, Label } from "@/components/ui/field";
import { Form } from "@/components/ui/form";
import { TextField } from "@/components/ui/text-field";
import { defineMessages, useIntl, type NoMessageValues } from "react-intl";
import { IconSelector } from "@/features/dashboards/components/icon-selector";
import { CategoryColorPicker, parseOr, toHex } from "@/features/dashboards/components/color-picker";
import { categoryErrorIds, type CategoryInput } from "@/features/dashboards/api/categories";
import { fieldErrors, serverMessage, translator } from "@/lib/api-error";
import { defaultCategoryIcon, defaultColor, type CategoryNode, type TreeNode } from "@/features/dashboards/utils/category-tree";

const messages = defineMessages<{
  cancel: NoMessageValues;
  save: NoMessageValues;
  create: NoMessageValues;
  copy: NoMessageValues;
  remove: NoMessageValues;
  title: NoMessageValues;
  name: NoMessageValues;
  required: NoMessageValues;
  max255: NoMessageValues;
  generic: NoMessageValues;
  newCategory: NoMessageValues;
  newCategoryIn: { parent: string };
  editCategory: NoMessageValues;
  newDashboard: NoMessageValues;
  newDashboardIn: { parent: string };
  copyDashboard: NoMessageValues;
  copyOf: { name: string };
  removeCategory: NoMessageValues;
  removeDashboard: NoMessageValues;
  removeCategoryText: { title: string };
  removeDashboardText: { title: string };
}>({
  cancel: { id: "tree.dialog.cancel", defaultMessage: "Cancel" },
  save: { id: "tree.dialog.save", defaultMessage: "Save" },
  create: { id: "tree.dialog.create", defaultMessage: "Create" },
  copy: { id: "tree.dialog.copy", defaultMessage: "Copy" },
  remove: { id: "tree.dialog.remove", defaultMessage: "Remove" },
  title: { id: "tree.category.title", defaultMessage: "Title" },
  name: { id: "tree.dashboard.name", defaultMessage: "Name" },
  required: { id: "validation.required", defaultMessage: "This field must be filled in" },
  max255: { id: "validation.max255", defaultMessage: "Max characters is 255" },
  generic: { id: "error.generic", defaultMessage: "An error occured, try again later" },
  newCategory: { id: "tree.category.new", defaultMessage: "New category" },
  newCategoryIn: { id: "tree.category.newIn", defaultMessage: "New category in {parent}" },
  editCategory: { id: "tree.category.edit", defaultMessage: "Edit category" },
  newDashboard: { id: "tree.dashboard.new", defaultMessage: "New dashboard" },
  newDashboardIn: { id: "tree.dashboard.newIn", defaultMessage: "New dashboard in {parent}" },
  copyDashboard: { id: "tree.dashboard.copy", defaultMessage: "Copy dashboard" },
  copyOf: { id: "tree.dashboard.copyOf", defaultMessage: "{name} (copy)" },
  removeCategory: { id: "tree.remove.categoryTitle", defaultMessage: "Remove category" },
  removeDashboard: { id: "tree.remove.dashboardTitle", defaultMessage: "Remove dashboard" },
  removeCategoryText: { id: "tree.remove.categoryText", defaultMessage: "Remove the category “{title}”?" },
  removeDashboardText: {
    id: "tree.remove.dashboardText",
    defaultMessage: "Remove the dashboard “{title}” with its modules and public links?",
  },
});

// Dialog widths in pixels: the category dialog, and the dashboard and
// removal dialogs.
const categoryWidth = 600;
const otherWidth = 450;

// DialogState says which dialog is open and for which node.
export type DialogState =
  | { type: "category-create"; parent: CategoryNode | null }
  | { type: "category-edit"; node: CategoryNode }
  | { type: "dashboard-create"; parent: CategoryNode | null }
  | { type: "dashboard-copy"; node: TreeNode }
  | { type: "remove"; node: TreeNode };

interface FrameProps {
  title: string;
  width: number;
  busy: boolean;
  onClose: () => void;
  children: ReactNode;
}

// DialogFrame is a modal dialog: Escape and a click outside close it,
// except while its call runs.
function DialogFrame({ title, width, busy, onClose, children }: FrameProps): ReactNode {
  return (
    <Modal
      overlayClassName="fh-tree-modal__overlay"
      className="fh-tree-modal"
      style={{ width: `min(${width}px, calc(100vw - 2rem))` }}
      boxProps={{ "data-width": width }}
      isOpen
      isDismissable={!busy}
      isKeyboardDismissDisabled={busy}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
    >
      <Dialog className="fh-tree-modal__dialog">
        <DialogHeading className="fh-tree-modal__title">{title}</DialogHeading>
        {children}
      </Dialog>
    </Modal>
  );
}

// useSubmit runs a dialog's call: busy while it runs, the field messages
// and the form's message of a refusal afterwards. check returns the first
// field message the form has before any call (null when it may be sent);
// once a submit was tried, the field messages follow the typing, so that a
// message never vanishes (and moves the buttons) under a click.
function useSubmit(
  run: () => Promise<void>,
  check: () => string | null = () => null,
  fieldNames: readonly string[] = [],
): {
  busy: boolean;
  tried: boolean;
  serverErrors: Record<string, string>;
  clearServerError: (field: string) => void;
  formError: string | null;
  submit: (e?: FormEvent) => void;
} {
  const intl = useIntl();
  const [busy, setBusy] = useState(false);
  const [tried, setTried] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const submit = (e?: FormEvent): void => {
    e?.preventDefault();
    if (busy) return;
    setTried(true);
    if (check() !== null) {
      const form = e?.currentTarget instanceof HTMLFormElement ? e.currentTarget : null;
      form?.querySelector<HTMLInputElement>("input[aria-invalid=true], input")?.focus();
      return;
    }
    setBusy(true);
    setFormError(null);
    run().then(
      () => setBusy(false),
      (err: unknown) => {
        setBusy(false);
        const translate = translator(intl, categoryErrorIds);
        const fields = fieldErrors(err, translate);
        // A message about a field the dialog does not show (the category
        // of a new dashboard, say) is the form's.
        const elsewhere = Object.entries(fields).filter(([f]) => !fieldNames.includes(f));
        setServerErrors(Object.fromEntries(Object.entries(fields).filter(([f]) => fieldNames.includes(f))));
        if (elsewhere.length > 0) setFormError(elsewhere.map(([, text]) => text).join(" "));
        else if (Object.keys(fields).length === 0) setFormError(serverMessage(err, translate) ?? intl.formatMessage(messages.generic));
      },
    );
  };
  const clearServerError = (field: string): void => {
    if (field in serverErrors) setServerErrors(({ [field]: _, ...rest }) => rest);
  };
  return { busy, tried, serverErrors, clearServerError, formError, submit };
}

function useRequired(): (value: string) => string | null {
  const intl = useIntl();
  return (value) => {
    if (value.trim() === "") return intl.formatMessage(messages.required);
    if (value.length > 255) return intl.formatMessage(messages.max255);
    return null;
  };
}

// NameField is a dialog's required text field; error is the message to
// show now (none before the first submit).
function NameField({
  name,
  label,
  value,
  onChange,
  error,
}: {
  name: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error: string | null;
}): ReactNode {
  return (
    <TextField
      className="fh-tree-field"
      name={name}
      value={value}
      onChange={onChange}
      isRequired
      isInvalid={error !== null}
      validationBehavior="aria"
      autoFocus
    >
      <Label className="fh-tree-field__label">{label}</Label>
      <Input className="fh-tree-field__input" />
      <FieldError className="fh-tree-field__error">{error}</FieldError>
    </TextField>
  );
}

function Actions({ busy, submitLabel, onClose, danger = false, onSubmit }: {
  busy: boolean;
  submitLabel: string;
  onClose: () => void;
  danger?: boolean;
  onSubmit?: () => void;
}): ReactNode {
  const intl = useIntl();
  return (
    <DialogActions className="fh-tree-modal__actions">
      <Button className="fh-tree-button fh-tree-button--secondary" onPress={onClose} isDisabled={busy}>
        {intl.formatMessage(messages.cancel)}
      </Button>
      <Button
        className={`fh-tree-button${danger ? " fh-tree-button--danger" : ""}`}
        type={onSubmit ? "button" : "submit"}
        onPress={onSubmit}
        isPending={busy}
      >
        {submitLabel}
      </Button>
    </DialogActions>
  );
}

function FormError({ text }: { text: string | null }): ReactNode {
  return text ? (
    <p className="fh-tree-modal__error" role="alert">
      <span className="mdi mdi-alert-circle-outline" aria-hidden="true" /> {text}
    </p>
  ) : null;
}

// CategoryDialog creates a category (under parent, or at the root) or edits
// one.
export function CategoryDialog({
  parent,
  category,
  onSubmit,
  onClose,
}: {
  parent?: CategoryNode | null;
  category?: CategoryNode;
  onSubmit: (input: CategoryInput) => Promise<void>;
  onClose: () => void;
}): ReactNode {
  const intl = useIntl();
  const required = useRequired();
  const [title, setTitle] = useState(category?.title ?? "");
  const [color, setColor] = useState(() => parseOr(category?.color ?? defaultColor, defaultColor));
  const [icon, setIcon] = useState(category?.icon ?? defaultCategoryIcon);
  const { busy, tried, serverErrors, clearServerError, formError, submit } = useSubmit(
    () => onSubmit({ title: title.trim(), icon, color: toHex(color) }),
    () => required(title),
    ["title"],
  );
  const heading = category
    ? intl.formatMessage(messages.editCategory)
    : parent
      ? intl.formatMessage(messages.newCategoryIn, { parent: parent.title })
      : intl.formatMessage(messages.newCategory);
  return (
    <DialogFrame title={heading} width={categoryWidth} busy={busy} onClose={onClose}>
      <Form className="fh-tree-form" onSubmit={submit} validationBehavior="aria">
        <NameField
          name="title"
          label={intl.formatMessage(messages.title)}
          value={title}
          onChange={(v) => {
            setTitle(v);
            clearServerError("title");
          }}
          error={(tried ? required(title) : null) ?? serverErrors.title ?? null}
        />
        <CategoryColorPicker value={color} onChange={setColor} />
        <IconSelector value={icon} onIconChange={setIcon} />
        <FormError text={formError} />
        <Actions busy={busy} submitLabel={intl.formatMessage(category ? messages.save : messages.create)} onClose={onClose} />
      </Form>
    </DialogFrame>
  );
}

// DashboardDialog creates a dashboard (in parent, or at the root) or copies
// one (copyOf), asking for its name.
export function DashboardDialog({
  parent,
  copyOf,
  onSubmit,
  onClose,
}: {
  parent?: CategoryNode | null;
  copyOf?: TreeNode;
  onSubmit: (name: string) => Promise<void>;
  onClose: () => void;
}): ReactNode {
  const intl = useIntl();
  const required = useRequired();
  const [name, setName] = useState(() => (copyOf ? intl.formatMessage(messages.copyOf, { name: copyOf.title }) : ""));
  const { busy, tried, serverErrors, clearServerError, formError, submit } = useSubmit(
    () => onSubmit(name.trim()),
    () => required(name),
    ["name"],
  );
  const heading = copyOf
    ? intl.formatMessage(messages.copyDashboard)
    : parent
      ? intl.formatMessage(messages.newDashboardIn, { parent: parent.title })
      : intl.formatMessage(messages.newDashboard);
  return (
    <DialogFrame title={heading} width={otherWidth} busy={busy} onClose={onClose}>
      <Form className="fh-tree-form" onSubmit={submit} validationBehavior="aria">
        <NameField
          name="name"
          label={intl.formatMessage(messages.name)}
          value={name}
          onChange={(v) => {
            setName(v);
            clearServerError("name");
          }}
          error={(tried ? required(name) : null) ?? serverErrors.name ?? null}
        />
        <FormError text={formError} />
        <Actions busy={busy} submitLabel={intl.formatMessage(copyOf ? messages.copy : messages.create)} onClose={onClose} />
      </Form>
    </DialogFrame>
  );
}

// RemoveDialog confirms removing a category or a dashboard. A category that
// still holds something is refused with a 400 whose (translated) message
// the dialog shows.
export function RemoveDialog({
  node,
  onConfirm,
  onClose,
}: {
  node: TreeNode;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}): ReactNode {
  const intl = useIntl();
  const { busy, formError, submit } = useSubmit(onConfirm);
  const category = node.kind === "category";
  return (
    <DialogFrame
      title={intl.formatMessage(category ? messages.removeCategory : messages.removeDashboard)}
      width={otherWidth}
      busy={busy}
      onClose={onClose}
    >
      <p className="fh-tree-modal__text">
        {intl.formatMessage(category ? messages.removeCategoryText : messages.removeDashboardText, { title: node.title })}
      </p>
      <FormError text={formError} />
      <Actions busy={busy} submitLabel={intl.formatMessage(messages.remove)} onClose={onClose} danger onSubmit={() => submit()} />
    </DialogFrame>
  );
}
