/** The app document of the test library's app `ed` (a Linux program matched by its window class). */
export function edApp(implementsList: string[] = []) {
  return {
    kind: 'app',
    id: 'ed',
    name: 'Ed',
    platforms: ['linux'],
    launch: { command: 'ed' },
    windows: { class: '^ed$' },
    implements: implementsList,
  };
}
