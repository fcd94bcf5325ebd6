import { ApiProperty } from '@nestjs/swagger';

/** `{"message": "success"}`, the spec's answer for actions. */
export class MessageDto {
  @ApiProperty({ example: 'success' })
  message!: string;
}

export const SUCCESS: MessageDto = { message: 'success' };
