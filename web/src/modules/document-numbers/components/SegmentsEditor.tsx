import { ArrowDownOutlined, ArrowUpOutlined, CalendarOutlined, DeleteOutlined, FieldStringOutlined, FontSizeOutlined, NumberOutlined } from '@ant-design/icons';
import { AutoComplete, Button, Form, Input, InputNumber, Space, Tag, Typography } from 'antd';
import { FIELD_CODE_PATTERN } from '@tessera/core/contracts/document-numbers';
import { DATE_PATTERN, type TDocumentNumberSegment } from '@tessera/core/document-number-format';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import '../i18n.ts';

export type SegmentType = TDocumentNumberSegment['type'];

export const SEGMENT_ICONS: Record<SegmentType, ReactNode> = {
  text: <FontSizeOutlined />,
  date: <CalendarOutlined />,
  serial: <NumberOutlined />,
  field: <FieldStringOutlined />,
};
export const SEGMENT_COLORS: Record<SegmentType, string> = { text: 'default', date: 'blue', serial: 'green', field: 'purple' };

const DATE_PATTERNS = ['yyyy', 'yyyyMM', 'yyyyMMdd', 'yyMMdd', 'yyMM', 'yy', 'yyyy-MM-dd', 'yyyyMMddHHmmss', 'HHmmss'];

export const newSegment = (type: SegmentType): TDocumentNumberSegment =>
  type === 'text' ? { type, value: '' } : type === 'date' ? { type, pattern: 'yyyyMMdd' } : type === 'serial' ? { type, width: 4, start: 1, step: 1 } : { type, fieldCode: '' };

/**
 * The ordered segments of a rule inside the rule form (`segments`): fixed text, a date pattern,
 * one serial (width, start, step) and record fields; move up/down, remove, add.
 */
export function SegmentsEditor({ serialFixed }: { serialFixed: boolean }) {
  const { t } = useTranslation('documentNumbers');
  const form = Form.useFormInstance();
  const segments: TDocumentNumberSegment[] = Form.useWatch('segments', form) ?? [];
  const hasSerial = segments.some((s) => s?.type === 'serial');

  return (
    <Form.List name="segments">
      {(fields, { add, remove, move }) => (
        <div data-testid="segments">
          {fields.map((field, index) => {
            const type: SegmentType = segments[index]?.type ?? 'text';
            return (
              <div key={field.key} style={{ display: 'flex', alignItems: 'flex-start', gap: 8, marginBottom: 8 }} data-testid={`segment-${index}`} data-type={type}>
                <Tag color={SEGMENT_COLORS[type]} icon={SEGMENT_ICONS[type]} style={{ width: 92, marginTop: 5, textAlign: 'center' }}>
                  {t(`segment.${type}`)}
                </Tag>
                <Form.Item name={[field.name, 'type']} hidden>
                  <Input />
                </Form.Item>
                <div style={{ flex: 1 }}>
                  {type === 'text' && (
                    <Form.Item name={[field.name, 'value']} style={{ marginBottom: 0 }} rules={[{ required: true, message: t('segment.valueRequired') }]}>
                      <Input maxLength={30} placeholder={t('segment.value')} aria-label={t('segment.value')} />
                    </Form.Item>
                  )}
                  {type === 'date' && (
                    <Form.Item
                      name={[field.name, 'pattern']}
                      style={{ marginBottom: 0 }}
                      rules={[
                        { required: true, message: t('segment.patternRequired') },
                        { pattern: DATE_PATTERN, message: t('segment.patternInvalid') },
                      ]}
                    >
                      <AutoComplete options={DATE_PATTERNS.map((p) => ({ value: p }))} placeholder={t('segment.pattern')} aria-label={t('segment.pattern')} style={{ width: 220 }} />
                    </Form.Item>
                  )}
                  {type === 'serial' && (
                    <Space wrap>
                      <Form.Item name={[field.name, 'width']} label={t('segment.width')} style={{ marginBottom: 0 }} rules={[{ required: true }]}>
                        <InputNumber min={1} max={12} precision={0} aria-label={t('segment.width')} style={{ width: 80 }} />
                      </Form.Item>
                      <Form.Item name={[field.name, 'start']} label={t('segment.start')} style={{ marginBottom: 0 }} rules={[{ required: true }]}>
                        <InputNumber min={0} max={999_999_999} precision={0} disabled={serialFixed} aria-label={t('segment.start')} style={{ width: 110 }} />
                      </Form.Item>
                      <Form.Item name={[field.name, 'step']} label={t('segment.step')} style={{ marginBottom: 0 }} rules={[{ required: true }]}>
                        <InputNumber min={1} max={1000} precision={0} disabled={serialFixed} aria-label={t('segment.step')} style={{ width: 80 }} />
                      </Form.Item>
                    </Space>
                  )}
                  {type === 'field' && (
                    <Form.Item
                      name={[field.name, 'fieldCode']}
                      style={{ marginBottom: 0 }}
                      rules={[
                        { required: true, message: t('segment.fieldRequired') },
                        { pattern: FIELD_CODE_PATTERN, message: t('segment.fieldInvalid') },
                      ]}
                    >
                      <Input maxLength={64} placeholder={t('segment.fieldCode')} aria-label={t('segment.fieldCode')} style={{ width: 220 }} />
                    </Form.Item>
                  )}
                </div>
                <Space size={0} style={{ marginTop: 2 }}>
                  {/* Native titles: a tooltip would sit over the next row's buttons while clicking down a list. */}
                  <Button type="text" size="small" icon={<ArrowUpOutlined />} disabled={index === 0} title={t('segment.moveUp')} aria-label={t('segment.moveUp')} onClick={() => move(index, index - 1)} />
                  <Button type="text" size="small" icon={<ArrowDownOutlined />} disabled={index === fields.length - 1} title={t('segment.moveDown')} aria-label={t('segment.moveDown')} onClick={() => move(index, index + 1)} />
                  <Button type="text" size="small" danger icon={<DeleteOutlined />} disabled={type === 'serial' && serialFixed} title={t('segment.remove')} aria-label={t('segment.remove')} onClick={() => remove(index)} />
                </Space>
              </div>
            );
          })}
          <Space wrap>
            <Typography.Text type="secondary">{t('segment.add')}:</Typography.Text>
            {(['text', 'date', 'serial', 'field'] as const).map((type) => (
              <Button key={type} size="small" icon={SEGMENT_ICONS[type]} disabled={type === 'serial' && hasSerial} onClick={() => add(newSegment(type))} data-testid={`add-segment-${type}`}>
                {t(`segment.${type}`)}
              </Button>
            ))}
          </Space>
        </div>
      )}
    </Form.List>
  );
}

/** A rule's segments as a compact pattern (`PO-{yyyyMMdd}-####`) for the list. */
export function formatSummary(segments: TDocumentNumberSegment[]): ReactNode {
  return (
    <Space size={2} wrap>
      {segments.map((s, i) => (
        <Tag key={i} color={SEGMENT_COLORS[s.type]} style={{ marginInlineEnd: 0, fontFamily: 'monospace' }}>
          {s.type === 'text' ? s.value : s.type === 'date' ? s.pattern : s.type === 'serial' ? '#'.repeat(s.width) : `{${s.fieldCode}}`}
        </Tag>
      ))}
    </Space>
  );
}
