import { AdminOnly } from '@app/auth';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { AdminUseCases } from './admin.usecases';
import { CreateWorkspaceDto } from './dto/create-workspace.dto';
import { IssueKeyDto } from './dto/issue-key.dto';
import { SetPaymentMethodDto } from './dto/set-payment-method.dto';

@AdminOnly()
@Controller('admin')
export class AdminController {
  constructor(private readonly admin: AdminUseCases) {}

  @Post('workspaces')
  createWorkspace(@Body() body: CreateWorkspaceDto) {
    return this.admin.createWorkspace(body.name, body.paymentMethod);
  }

  @Get('workspaces')
  listWorkspaces() {
    return this.admin.listWorkspaces();
  }

  @Get('workspaces/:id')
  getWorkspace(@Param('id') id: string) {
    return this.admin.getWorkspace(id);
  }

  @Post('workspaces/:id/api-keys')
  issueKey(@Param('id') id: string, @Body() body: IssueKeyDto) {
    return this.admin.issueKey(id, body?.name);
  }

  @Delete('api-keys/:keyId')
  async revokeKey(@Param('keyId') keyId: string) {
    return { apiKey: await this.admin.revokeKey(keyId) };
  }

  @Put('workspaces/:id/payment-method')
  @HttpCode(200)
  async setPaymentMethod(@Param('id') id: string, @Body() body: SetPaymentMethodDto) {
    return { workspace: await this.admin.setPaymentMethod(id, body.paymentMethod) };
  }

  @Delete('workspaces/:id/payment-method')
  async removePaymentMethod(@Param('id') id: string) {
    return { workspace: await this.admin.setPaymentMethod(id, null) };
  }
}
