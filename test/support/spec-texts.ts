/** Spec texts several suites render: one small AppService `web` (nginx, port 80). */
export const WEB_APP_SPEC = `apiVersion: apps.specforge.dev/v1alpha1
kind: AppService
metadata: { name: web }
spec:
  image: nginx:1.27
  ports: [{ port: 80, targetPort: 80 }]
`;
