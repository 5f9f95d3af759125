/**
 * Stands in for `@peculiar/x509` in the Lambda bundles (an esbuild alias set by ServiceFunction).
 * @simplewebauthn/server needs it only to check attestation certificate chains and the FIDO
 * metadata service, and the passkey registration asks for no attestation (`attestationType:
 * 'none'`, which browsers honour by sending the `none` format): the library, tsyringe and
 * reflect-metadata would add 112 KB to the passkey functions, past the 600 KiB budget. An
 * authenticator that sends a certificate anyway is refused (400), never trusted unchecked.
 */
class CertificatesNotChecked {
  constructor() {
    throw new Error('attestation certificates are not accepted: passkeys are registered without attestation');
  }
}

export const X509Certificate = CertificatesNotChecked;
export const X509ChainBuilder = CertificatesNotChecked;
export const X509Crl = CertificatesNotChecked;
export const AuthorityKeyIdentifierExtension = CertificatesNotChecked;
export const CRLDistributionPointsExtension = CertificatesNotChecked;
export const SubjectKeyIdentifierExtension = CertificatesNotChecked;
