import { Body1, makeStyles, Title1, Title3, tokens } from '@fluentui/react-components';
import { Page } from '../../components/Page.tsx';

const useStyles = makeStyles({ list: { margin: 0, paddingLeft: tokens.spacingHorizontalXL } });

export default function PrivacyPage() {
  const styles = useStyles();
  return (
    <Page label="Privacy">
      <Title1 as="h1">Privacy</Title1>
      <Body1>
        This app exists to learn which of two search models serves readers of classical texts better. It stores only what
        that needs, on the server that runs it; nothing is sold, shared or used for advertising, and there are no
        third-party trackers.
      </Body1>
      <Title3 as="h2">What is stored</Title3>
      <ul className={styles.list}>
        <li>Your account: username and a password hash (argon2id; the password itself is never stored).</li>
        <li>The user type you chose (Enthusiast or Ustaz).</li>
        <li>
          Each vote: your username, the question you searched for, the passage you rated, the anonymous label (A or B)
          and the model behind it, your reaction (👍, 🤷 or 👎), the similarity score, and the time.
        </li>
        <li>Passages you save while signed in: the paragraph, your note, and when you saved and last changed it.</li>
        <li>Your sign-in sessions: when they started and were last used (refresh tokens only as hashes).</li>
        <li>Failed sign-in counts per account and per network address, to stop password guessing.</li>
      </ul>
      <Body1>
        Searches themselves are not stored unless you vote on their results. Your browser keeps your sign-in tokens, your
        theme and user type, the passages you saved, and any vote or change waiting to be sent, until the server can be reached and the reader who gave it is signed in.
      </Body1>
      <Title3 as="h2">For how long</Title3>
      <ul className={styles.list}>
        <li>Votes: until the comparison study ends, and at most two years; then they are deleted.</li>
        <li>Saved passages: until you remove them, or ask to be forgotten.</li>
        <li>Sessions: they expire after 14 days unused, and 30 days at most.</li>
        <li>Failed sign-in counts: one hour.</li>
      </ul>
      <Title3 as="h2">Deleting your data</Title3>
      <Body1>
        Ask the people who run this site (the maintainers listed in the source repository) to forget you. They run{' '}
        <code>npm run users -- forget YOUR-NAME</code>, which deletes all your votes and saved passages and signs you out everywhere; your
        account can be removed too on request (<code>npm run users -- remove YOUR-NAME</code>). You can see your own votes through the API at <code>/api/feedback</code>.
      </Body1>
    </Page>
  );
}
