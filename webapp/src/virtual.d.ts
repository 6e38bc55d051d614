// Modules made by vite.config.ts.
declare module "virtual:catalog/*" {
  import type { MessageFormatElement } from "react-intl";
  const messages: Record<string, MessageFormatElement[]>;
  export default messages;
}
