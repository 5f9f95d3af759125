import { Anchor, Text } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { usePageTitle, useSiteTitle } from '../api/server.ts';
import { AuthCard } from '../components/AuthCard.tsx';
import { RegisterForm } from '../components/RegisterForm.tsx';

/** `/invite/{code}`: an invite's link, where the invited person creates an account (issue 38). */
export function InvitePage() {
  const { code = '' } = useParams();
  const site = useSiteTitle();
  usePageTitle('Invite');
  return (
    <AuthCard title="You are invited" intro={`Create your account on ${site}.`}>
      <RegisterForm code={code} />
      <Text size="sm" mt="md" ta="center">
        Already have an account?{' '}
        <Anchor component={Link} to="/login">
          Sign in
        </Anchor>
      </Text>
    </AuthCard>
  );
}
