/** SkillDesk's browser for web skills: Playwright on the system Chromium (or one attached over CDP), and a recording page for dry runs. */
export {
  CHROMIUM_FLAGS,
  defaultChromiumPath,
  openPlaywrightBrowser,
  playwrightChord,
  type PlaywrightBrowserOptions,
} from './PlaywrightBrowser';
export { loopbackCdpEndpoint } from './cdpEndpoint';
export { RecordingPage, type RecordedPageCall } from './RecordingBrowser';
