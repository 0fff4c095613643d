import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ErrorBoundary } from '../../src/app/ErrorBoundary.tsx';

function Broken(): never {
  throw new Error('The passage index is out of range');
}

describe('the crash screen', () => {
  it('says something went wrong, shows the error and offers a reload', () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <FluentProvider theme={webLightTheme}>
        <ErrorBoundary>
          <Broken />
        </ErrorBoundary>
      </FluentProvider>,
    );
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.getByText('The passage index is out of range')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload page' })).toBeInTheDocument();
    quiet.mockRestore();
  });

  it('says a route’s code could not be fetched in the spec’s words, not the browser’s', () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    function Offline(): never {
      throw new TypeError('Failed to fetch dynamically imported module: http://127.0.0.1/assets/InsightsPage-abc.js');
    }
    render(
      <FluentProvider theme={webLightTheme}>
        <ErrorBoundary>
          <Offline />
        </ErrorBoundary>
      </FluentProvider>,
    );
    expect(screen.getByText('Network error. Please try again.')).toBeInTheDocument();
    expect(screen.queryByText(/dynamically imported/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Reload page' })).toBeInTheDocument();
    quiet.mockRestore();
  });
});
