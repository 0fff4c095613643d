/**
 * The entry: small on purpose. A page the build pre-rendered is already on screen from its HTML,
 * so the app (src/boot.tsx) loads after that first paint instead of holding it back; the plain
 * shell has nothing to show yet and loads the app at once.
 */
function boot(): void {
  void import('./boot.tsx');
}

if (document.getElementById('root')?.dataset.prerendered && document.visibilityState === 'visible') {
  // requestAnimationFrame runs just before the first paint; the timeout, just after it.
  requestAnimationFrame(() => setTimeout(boot, 0));
} else {
  // Nothing painted yet, or a background tab, which gets no frames.
  boot();
}
