import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ScreenFailed, SCREEN_FAILED_MESSAGE } from './ScreenFailed';
import { ERROR_PANEL_TITLE } from './SidePanel';

describe('ScreenFailed', () => {
  it('says what failed in the spec’s error panel, with a reload and a way back to the map', () => {
    const html = renderToStaticMarkup(
      <ScreenFailed error={new Error('boom')} resetErrorBoundary={() => undefined} />,
    );
    expect(html).toContain('role="alert"');
    expect(html).toContain(ERROR_PANEL_TITLE);
    expect(html).toContain(SCREEN_FAILED_MESSAGE);
    expect(html).toMatch(/<button type="button" class="xp-button xp-button--primary">Reload<\/button>/);
    expect(html).toContain('<a class="xp-button" href="/maps">Open the map</a>');
    // the failure's own text is for the console, not the visitor
    expect(html).not.toContain('boom');
  });
});
