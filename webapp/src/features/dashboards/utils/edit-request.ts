// A dashboard's address ending in #edit opens it in edit mode: the category
// tree sends a dashboard it has just created there, to have modules added.

// editPath is the address that opens dashboard id in edit mode.
export function editPath(id: number): string {
  return `/dashboard/${id}#edit`;
}

// takeEditRequest tells whether the address asks for edit mode, and drops
// the request from it, so that a reload shows the dashboard as it is seen.
export function takeEditRequest(): boolean {
  if (window.location.hash !== "#edit") return false;
  window.history.replaceState(window.history.state, "", window.location.pathname + window.location.search);
  return true;
}
