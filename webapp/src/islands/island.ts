// IslandModule is what an island's mount.tsx exports. activated is true when
// the island was deferred (data-island-defer) and loaded by a click on it:
// it should do what that click asked for.
export interface IslandModule {
  mount(el: HTMLElement, props: unknown, activated?: boolean): void;
}
