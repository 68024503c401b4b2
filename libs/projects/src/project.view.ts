import { dateTime, freeForm, Infer, nullable, obj, str } from '@app/kernel';
import { Project } from './project.entity';

export const projectSchema = obj({
  id: str('`prj_...`'),
  name: str(),
  description: nullable(str()),
  metadata: freeForm,
  createdAt: dateTime(),
  updatedAt: dateTime(),
});
export type ProjectView = Infer<typeof projectSchema>;

export function toProjectView(project: Project): ProjectView {
  return {
    id: project.id,
    name: project.name,
    description: project.description,
    metadata: project.metadata,
    createdAt: project.createdAt.toISOString(),
    updatedAt: project.updatedAt.toISOString(),
  };
}
