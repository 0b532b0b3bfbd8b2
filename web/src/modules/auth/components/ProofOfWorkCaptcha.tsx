import { CheckCircleFilled, LoadingOutlined, SafetyOutlined } from '@ant-design/icons';
import { Checkbox, Space, theme, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchCaptcha } from '../api/registration.ts';
import { solveCaptcha } from '../captcha/solve-captcha.ts';
import '../i18n.ts';

type State = 'unverified' | 'verifying' | 'verified' | 'expired' | 'error';

interface Props {
  /** The solved payload for the form (`captcha`), or undefined. */
  value?: string;
  onChange?(value: string | undefined): void;
  id?: string;
}

/**
 * "I'm not a robot": ticking it fetches a proof-of-work challenge and solves it in workers
 * (ALTCHA's protocol, about a second). The answer lasts until the challenge expires (2 minutes);
 * then the box clears and asks again. Works over plain http (see the worker).
 */
export function ProofOfWorkCaptcha({ value, onChange, id }: Props) {
  const { t } = useTranslation('auth');
  const { token } = theme.useToken();
  const [state, setState] = useState<State>(value ? 'verified' : 'unverified');
  const abort = useRef<AbortController | null>(null);
  const expiry = useRef<number | undefined>(undefined);

  useEffect(() => () => {
    abort.current?.abort();
    window.clearTimeout(expiry.current);
  }, []);
  // The form cleared the value (a failed registration spends the challenge): ask again.
  useEffect(() => {
    if (!value && state === 'verified') setState('unverified');
  }, [value, state]);

  const verify = async () => {
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setState('verifying');
    try {
      const challenge = await fetchCaptcha();
      const payload = await solveCaptcha(challenge, controller.signal);
      if (controller.signal.aborted) return;
      setState('verified');
      onChange?.(payload);
      const expiresAt = (challenge.parameters.expiresAt ?? 0) * 1000;
      window.clearTimeout(expiry.current);
      expiry.current = window.setTimeout(() => {
        setState('expired');
        onChange?.(undefined);
      }, Math.max(0, expiresAt - Date.now() - 5_000));
    } catch {
      if (!controller.signal.aborted) setState('error');
      onChange?.(undefined);
    }
  };

  const status = {
    unverified: null,
    verifying: <Typography.Text type="secondary">{t('captcha.verifying')}</Typography.Text>,
    verified: <Typography.Text type="success">{t('captcha.verified')}</Typography.Text>,
    expired: <Typography.Text type="warning">{t('captcha.expired')}</Typography.Text>,
    error: <Typography.Text type="danger">{t('captcha.error')}</Typography.Text>,
  }[state];

  return (
    <div
      className="pow-captcha"
      data-state={state}
      style={{ border: `1px solid ${token.colorBorder}`, borderRadius: token.borderRadius, padding: '10px 12px', display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}
    >
      <Space>
        {state === 'verifying' ? (
          <LoadingOutlined style={{ color: token.colorPrimary, fontSize: 16 }} aria-hidden />
        ) : state === 'verified' ? (
          <CheckCircleFilled style={{ color: token.colorSuccess, fontSize: 16 }} aria-hidden />
        ) : null}
        {state === 'verifying' || state === 'verified' ? (
          <span>{t('captcha.label')}</span>
        ) : (
          <Checkbox id={id} checked={false} onChange={(e) => e.target.checked && void verify()}>
            {t('captcha.label')}
          </Checkbox>
        )}
        <span role="status" aria-live="polite">
          {status}
        </span>
      </Space>
      <SafetyOutlined style={{ color: token.colorTextTertiary, fontSize: 20 }} title={t('captcha.hint')} />
    </div>
  );
}
