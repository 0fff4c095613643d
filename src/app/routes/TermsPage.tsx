import { Body1, Title1, Title3 } from '@fluentui/react-components';
import { Page } from '../../components/Page.tsx';

export default function TermsPage() {
  return (
    <Page label="Terms">
      <Title1 as="h1">Terms of use</Title1>
      <Title3 as="h2">The text</Title3>
      <Body1>
        Claud Field’s translation of <em>The Alchemy of Happiness</em> (1909) is in the public domain. Quote it freely. The
        passages shown are the translation as printed; search results are chosen by computer models and are no substitute
        for reading the book, or for a teacher.
      </Body1>
      <Title3 as="h2">Your account</Title3>
      <Body1>
        Accounts are personal: keep your password to yourself, and vote honestly on what you read, since the votes decide
        which model this app keeps. Do not try to break into the service or overload it; accounts that abuse it may be
        disabled.
      </Body1>
      <Title3 as="h2">The service</Title3>
      <Body1>
        The app is offered as it is, without warranty, and may change or stop. Your data is handled as the privacy page
        says.
      </Body1>
    </Page>
  );
}
