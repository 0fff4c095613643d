import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ErrorBoundary } from '../../src/components/ErrorBoundary.tsx';

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
});
