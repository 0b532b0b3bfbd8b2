import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/** spec §8 error pages: 403, 404 and 500 with their texts and a back-to-home button. */
export default function ErrorPage({ code }: { code: 403 | 404 | 500 }) {
  const { t } = useTranslation('shell');
  const navigate = useNavigate();
  return (
    <div className="error-page" data-testid={`error-${code}`}>
      <Result
        status={String(code) as '403' | '404' | '500'}
        title={code}
        subTitle={t(`error.${code}`)}
        extra={
          <Button type="primary" onClick={() => navigate('/', { replace: true })} autoFocus>
            {t('error.backHome')}
          </Button>
        }
      />
    </div>
  );
}

export const Forbidden = () => <ErrorPage code={403} />;
export const NotFound = () => <ErrorPage code={404} />;
export const ServerError = () => <ErrorPage code={500} />;
