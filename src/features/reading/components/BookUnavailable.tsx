import { Button, MessageBar, MessageBarActions, MessageBarBody, Title1 } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { ApiError } from '../../../lib/api/api-error.ts';
import { errorMessage, refreshServerData } from '../../../lib/api/server-data.ts';
import { BOOK_KEY } from '../book-api.ts';

/** The reader's pages when the book cannot be had: why, and "Try again" where trying again can help. */
export function BookUnavailable(props: { error: unknown; children?: ReactNode }) {
  const { error } = props;
  return (
    <>
      <Title1 as="h1">The book could not be opened</Title1>
      <MessageBar intent="error" role="alert">
        <MessageBarBody>{errorMessage(error, 'The book could not be opened')}</MessageBarBody>
        {error instanceof ApiError && error.retryable && (
          <MessageBarActions>
            <Button onClick={() => refreshServerData(BOOK_KEY)}>Try again</Button>
          </MessageBarActions>
        )}
      </MessageBar>
      {props.children}
    </>
  );
}
