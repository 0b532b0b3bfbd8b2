import { CopyOutlined, DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { Button, Form, Select, Space, Switch, Tooltip, Upload } from 'antd';
import { paperSize, PRINT_LIMITS, type TPaper, type TPrintElement } from '@tessera/core/contracts/print-templates';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../../shared/ui/feedback.tsx';
import '../i18n.ts';
import { FormatEditor } from './FormatEditor.tsx';
import { ColorInput, NumberInput } from './inputs.tsx';
import type { PrintableField, PrintableView } from './layout-ops.ts';
import { SourceEditor } from './SourceEditor.tsx';
import { TableProperties } from './TableProperties.tsx';
import { TextStyleEditor } from './TextStyleEditor.tsx';

/** The largest picture an image element takes (its data URL stays under `PRINT_LIMITS.imageChars`). */
const IMAGE_MAX_BYTES = 1024 * 1024;

const readDataUrl = (file: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });

/** The right panel with an element selected: its place and size, and what its type has (source, format, style, table, picture, symbology). */
export function ElementProperties({
  element,
  paper,
  fields,
  views,
  onChange,
  onRemove,
  onDuplicate,
}: {
  element: TPrintElement;
  paper: TPaper;
  fields: PrintableField[];
  views: PrintableView[];
  onChange(next: TPrintElement, mergeKey?: string): void;
  onRemove(): void;
  onDuplicate(): void;
}) {
  const { t } = useTranslation('print');
  const page = paperSize(paper);
  const key = (k: string) => `${element.id}:${k}`;
  const box = (k: 'x' | 'y' | 'width' | 'height' | 'rotate', max: number, min = 0) => (
    <Form.Item label={t(`props.${k}`)} style={{ marginBottom: 4 }}>
      <NumberInput value={element[k]} min={min} max={max} step={k === 'rotate' ? 90 : 1} width={80} label={t(`props.${k}`)} onChange={(v) => onChange({ ...element, [k]: v }, key(k))} />
    </Form.Item>
  );

  const pickImage = async (file: File) => {
    if (!['image/png', 'image/jpeg'].includes(file.type)) return void feedback.message?.error(t('props.imageBadType'));
    if (file.size > IMAGE_MAX_BYTES) return void feedback.message?.error(t('props.imageTooLarge'));
    const content = await readDataUrl(file);
    if (element.type === 'image' && content.length <= PRINT_LIMITS.imageChars) onChange({ ...element, content });
    else feedback.message?.error(t('props.imageTooLarge'));
  };

  return (
    <Form layout="vertical" size="small" data-testid="print-element-properties">
      <Space style={{ width: '100%', justifyContent: 'space-between' }}>
        <div className="ps-section">{t(`props.types.${element.type}`)}</div>
        <Space size={0}>
          <Tooltip title={t('designer.duplicate')}>
            <Button type="text" icon={<CopyOutlined />} onClick={onDuplicate} aria-label={t('designer.duplicate')} />
          </Tooltip>
          <Tooltip title={t('designer.delete')}>
            <Button type="text" danger icon={<DeleteOutlined />} onClick={onRemove} aria-label={t('designer.delete')} data-testid="print-element-delete" />
          </Tooltip>
        </Space>
      </Space>
      <div className="ps-section">{t('props.position')}</div>
      <Space wrap size={[8, 0]}>
        {box('x', page.width)}
        {box('y', page.height)}
        {box('width', page.width, element.type === 'line' ? 0.1 : 1)}
        {box('height', page.height, element.type === 'line' ? 0.1 : 1)}
        {box('rotate', 360)}
      </Space>
      <Form.Item style={{ marginTop: 8 }}>
        <Space>
          <Switch size="small" checked={element.everyPage} onChange={(everyPage) => onChange({ ...element, everyPage })} data-testid="print-every-page" />
          {t('props.everyPage')}
        </Space>
      </Form.Item>
      {element.type === 'text' && (
        <>
          <SourceEditor value={element.source} fields={fields} onChange={(source, mk) => onChange({ ...element, source }, mk && key(mk))} />
          {(element.source.kind === 'field' || element.source.kind === 'formula') && <FormatEditor value={element.format} onChange={(format) => onChange({ ...element, format })} />}
          <TextStyleEditor value={element.style} onChange={(style, mk) => onChange({ ...element, style }, mk && key(mk))} />
        </>
      )}
      {(element.type === 'qrCode' || element.type === 'barcode') && (
        <>
          {element.type === 'barcode' && (
            <Form.Item label={t('props.symbology')}>
              <Select value={element.symbology} onChange={(symbology) => onChange({ ...element, symbology })} options={[{ value: 'code128', label: 'Code 128' }, { value: 'ean13', label: 'EAN-13' }]} />
            </Form.Item>
          )}
          <SourceEditor value={element.source} fields={fields} kinds={['static', 'field', 'formula']} onChange={(source, mk) => onChange({ ...element, source }, mk && key(mk))} />
        </>
      )}
      {element.type === 'line' && (
        <Form.Item label={t('props.lineColor')}>
          <ColorInput value={element.color} label={t('props.lineColor')} onChange={(color) => onChange({ ...element, color }, key('color'))} />
        </Form.Item>
      )}
      {element.type === 'rectangle' && (
        <Space wrap align="start">
          <Form.Item label={t('props.borderColor')}>
            <ColorInput value={element.borderColor} label={t('props.borderColor')} onChange={(borderColor) => onChange({ ...element, borderColor }, key('borderColor'))} />
          </Form.Item>
          <Form.Item label={t('props.borderWidth')}>
            <NumberInput value={element.borderWidth} min={0} max={20} step={0.1} width={80} label={t('props.borderWidth')} onChange={(borderWidth) => onChange({ ...element, borderWidth }, key('borderWidth'))} />
          </Form.Item>
          <Form.Item label={t('props.fill')}>
            <ColorInput value={element.color} label={t('props.fill')} onChange={(color) => onChange({ ...element, color }, key('fill'))} />
          </Form.Item>
        </Space>
      )}
      {element.type === 'image' && (
        <Form.Item label={t('props.image')}>
          <Upload
            accept="image/png,image/jpeg"
            showUploadList={false}
            beforeUpload={(file) => {
              void pickImage(file);
              return Upload.LIST_IGNORE;
            }}
          >
            <Button icon={<UploadOutlined />} data-testid="print-image-upload">
              {t('props.imageUpload')}
            </Button>
          </Upload>
        </Form.Item>
      )}
      {element.type === 'table' && <TableProperties table={element} views={views} paper={paper} onChange={onChange} />}
    </Form>
  );
}
