// The states every widget shares: loading, error with a retry, empty, and
// a Load switch that picks one or draws the data.
import { Component, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { useIntl, type MessageDescriptor } from "react-intl";
import type { Load } from "@/features/dashboards/hooks/use-module-data";
import { msg } from "@/features/dashboards/utils/messages";
import type { DashModule } from "@/features/dashboards/utils/dashboard-model";
import type { Range } from "@/features/dashboards/hooks/use-module-data";

// WidgetProps are what every widget gets.
export interface WidgetProps {
  module: DashModule;
  range: Range;
  editing: boolean;
  // save stores a change the widget itself makes (a map's view, an image
  // map's sensor positions); only while editing.
  save: (m: DashModule) => void;
}

export function Loading(): ReactNode {
  const intl = useIntl();
  return (
    <div className="fh-dash-state" role="status" data-state="loading">
      <span className="mdi mdi-loading mdi-spin" aria-hidden="true" /> {intl.formatMessage(msg.wLoading)}
    </div>
  );
}

export function Failed({ retry, message }: { retry: () => void; message?: string }): ReactNode {
  const intl = useIntl();
  return (
    <div className="fh-dash-state fh-dash-state--error" role="alert" data-state="error">
      <span>{message || intl.formatMessage(msg.wError)}</span>
      <Button className="fh-dash-button fh-dash-button--small" onPress={retry}>
        {intl.formatMessage(msg.retry)}
      </Button>
    </div>
  );
}

export function Empty({ message = msg.wNoData }: { message?: MessageDescriptor }): ReactNode {
  const intl = useIntl();
  return (
    <div className="fh-dash-state" role="status" data-state="empty">
      {intl.formatMessage(message)}
    </div>
  );
}

// Loaded draws children(data) once load is done, else its state.
export function Loaded<T>({ load, children }: { load: Load<T>; children: (data: T) => ReactNode }): ReactNode {
  if (load.state === "loading") return <Loading />;
  if (load.state === "error") return <Failed retry={load.retry} message={load.message} />;
  return children(load.data);
}

// WidgetBoundary keeps one failing widget from taking the dashboard down:
// it shows the error state with a retry that draws the widget again.
export class WidgetBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(err: unknown): void {
    console.error("dashboard: a widget failed", err);
  }

  override render(): ReactNode {
    if (this.state.failed) return <Failed retry={() => this.setState({ failed: false })} />;
    return this.props.children;
  }
}
