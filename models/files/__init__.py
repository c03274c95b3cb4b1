"""Files domain: file records, download decisions and their VOs."""
