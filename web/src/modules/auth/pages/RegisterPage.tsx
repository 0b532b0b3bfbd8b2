import { Alert, Button, Card, Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { TRegisterInput } from '@tessera/core/contracts/auth';
import { ApiError } from '../../../shared/api/client.ts';
import { mapValidationErrors, setFieldErrors } from '../../../shared/api/validation-errors.ts';
import { signIn } from '../../../shared/auth/session.ts';
import { rootMessages } from '../../../shared/ui/feedback.tsx';
import { useRegister, useRegistrationOptions } from '../api/registration.ts';
import { ProofOfWorkCaptcha } from '../components/ProofOfWorkCaptcha.tsx';
import '../i18n.ts';

interface RegisterForm extends TRegisterInput {
  confirm: string;
}

const FIELDS = ['mail', 'password', 'mobile', 'captcha'] as const;

/** spec §1: registration (mail, password, mobile, captcha) signs the visitor in at once. */
export default function RegisterPage() {
  const { t } = useTranslation('auth');
  const [form] = Form.useForm<RegisterForm>();
  const navigate = useNavigate();
  const options = useRegistrationOptions();
  const register = useRegister();
  const policy = options.data?.passwordPolicy;

  const onFinish = async ({ confirm: _confirm, ...input }: RegisterForm) => {
    try {
      signIn(await register.mutateAsync({ ...input, mail: input.mail.trim(), mobile: input.mobile.trim() }));
      rootMessages()?.success(t('register.success'));
      navigate('/dashboard/console', { replace: true });
    } catch (err) {
      // The challenge is spent by any answer: a new one is needed.
      form.setFieldValue('captcha', undefined);
      const { fields } = mapValidationErrors(err instanceof ApiError ? err.validationErrors : [], { fields: FIELDS });
      if (fields.length) setFieldErrors(form, fields);
      else rootMessages()?.error((err as Error).message);
    }
  };

  return (
    <div className="login-page">
      <Card style={{ width: 420, maxWidth: 'calc(100vw - 32px)' }}>
        <Typography.Title level={3} style={{ marginTop: 0, marginBottom: 4 }}>
          {t('register.title')}
        </Typography.Title>
        <Typography.Paragraph type="secondary">{t('register.subtitle')}</Typography.Paragraph>
        {options.data && !options.data.isEnabled ? (
          <Alert type="info" showIcon title={t('register.closed')} style={{ marginBottom: 16 }} />
        ) : (
          <Form form={form} layout="vertical" onFinish={(v) => void onFinish(v)} aria-label={t('register.title')} requiredMark={false}>
            <Form.Item name="mail" label={t('register.mail')} rules={[{ required: true, type: 'email', message: t('register.mailInvalid') }]}>
              <Input autoComplete="email" placeholder={t('register.mailPlaceholder')} maxLength={256} autoFocus />
            </Form.Item>
            <Form.Item name="mobile" label={t('register.mobile')} rules={[{ required: true, pattern: /^\+?[0-9 -]{5,20}$/, message: t('register.mobileInvalid') }]}>
              <Input autoComplete="tel" placeholder={t('register.mobilePlaceholder')} maxLength={20} />
            </Form.Item>
            <Form.Item
              name="password"
              label={t('register.password')}
              extra={policy ? t('register.passwordPolicy', { minLength: policy.minLength, classes: policy.requiredClasses }) : undefined}
              rules={[{ required: true, message: t('register.passwordPlaceholder') }]}
            >
              <Input.Password autoComplete="new-password" placeholder={t('register.passwordPlaceholder')} maxLength={256} />
            </Form.Item>
            <Form.Item
              name="confirm"
              label={t('register.confirm')}
              dependencies={['password']}
              rules={[
                { required: true, message: t('register.confirmPlaceholder') },
                ({ getFieldValue }) => ({
                  validator: (_, value) => (!value || getFieldValue('password') === value ? Promise.resolve() : Promise.reject(new Error(t('register.mismatch')))),
                }),
              ]}
            >
              <Input.Password autoComplete="new-password" placeholder={t('register.confirmPlaceholder')} maxLength={256} />
            </Form.Item>
            <Form.Item name="captcha" label={t('register.captcha')} rules={[{ required: true, message: t('register.captchaRequired') }]}>
              <ProofOfWorkCaptcha />
            </Form.Item>
            <Button type="primary" htmlType="submit" size="large" block loading={register.isPending}>
              {t('register.submit')}
            </Button>
          </Form>
        )}
        <div style={{ marginTop: 16, textAlign: 'center' }}>
          <Link to="/login">{t('register.backToLogin')}</Link>
        </div>
      </Card>
    </div>
  );
}
