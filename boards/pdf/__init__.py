"""PDF output of the boards app: hand records, duplication sheets and protocol forms (reportlab)."""
