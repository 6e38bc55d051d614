// IslandModule is what an island's mount.tsx exports.
export interface IslandModule {
  mount(el: HTMLElement, props: unknown): void;
}
