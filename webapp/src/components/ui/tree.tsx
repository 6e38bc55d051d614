// Tree is a hierarchical list: TreeItems, each with its TreeItemContent and
// its child items.
import type { ReactNode } from "react";
import {
  Tree as AriaTree,
  TreeItem as AriaTreeItem,
  TreeItemContent as AriaTreeItemContent,
  type TreeItemContentProps,
  type TreeItemProps,
  type TreeProps,
} from "react-aria-components";

export function Tree<T extends object>(props: TreeProps<T>): ReactNode {
  return <AriaTree<T> {...props} />;
}

export function TreeItem<T extends object>(props: TreeItemProps<T>): ReactNode {
  return <AriaTreeItem<T> {...props} />;
}

export function TreeItemContent(props: TreeItemContentProps): ReactNode {
  return <AriaTreeItemContent {...props} />;
}
