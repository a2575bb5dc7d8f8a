/* report.h — the findings of one fkcgen command, printed in the format CI reads
 * (`--format text|json|sarif|junit|github`: docs/fkcgen.md, "Results CI reads"). The
 * diagnostics sink (diag.c) hands every message to a report once one is attached
 * (fkcg_diag_collect), so a format is a printer over the same findings, never a second code
 * path; without one (text) nothing changes. */
#ifndef FKCG_REPORT_H
#define FKCG_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "internal.h"

typedef enum fkcg_format {
    FKCG_FORMAT_TEXT,
    FKCG_FORMAT_JSON,
    FKCG_FORMAT_SARIF,
    FKCG_FORMAT_JUNIT,
    FKCG_FORMAT_GITHUB,
} fkcg_format;

/* "text", "json", "sarif", "junit", "github": 0 and *f set, or -1. */
int fkcg_format_parse(const char *name, fkcg_format *f);
/* The names, for usage texts: "text|json|sarif|junit|github". */
#define FKCG_FORMAT_NAMES "text|json|sarif|junit|github"

typedef struct fkcg_report fkcg_report;

/* A report of command cmd ("fkcgen check"). */
fkcg_report *fkcg_report_new(const char *cmd);
void fkcg_report_free(fkcg_report *r);
/* A rule the report may name, with its one-line description (SARIF's driver.rules). Rules
 * a finding names without this are listed with no description. */
void fkcg_report_rule(fkcg_report *r, const char *id, const char *description);
/* A test case of the JUnit report (a file checked, a change): it passes unless an error
 * finding names it. */
void fkcg_report_case(fkcg_report *r, const char *name);
/* A finding: rule id, level ("error", "warning" or "note"), location (NULL or file NULL:
 * none; line 0: the file only), message (escaped as the text form escapes it), test case
 * (NULL: the location's file, else the command). */
void fkcg_report_add(fkcg_report *r, const char *rule, const char *level, const fkcg_loc *loc,
                     const char *message, const char *test);
/* A second location of the finding added last ("was here", "first defined here"). */
void fkcg_report_related(fkcg_report *r, const fkcg_loc *loc, const char *message);
/* Prints the report in format f (not text) to out; returns 0, or -1 when out failed. */
int fkcg_report_print(const fkcg_report *r, fkcg_format f, FILE *out);

/* The check classes: the pass that found a contract error (docs/fkcgen.md's table). */
#define FKCG_RULE_LOAD "fkc.load"
#define FKCG_RULE_YAML "fkc.yaml"
#define FKCG_RULE_SCHEMA "fkc.schema"
#define FKCG_RULE_CONTRACT "fkc.contract"
#define FKCG_RULE_BINDING "fkc.binding"
#define FKCG_RULE_BACKEND "fkc.backend"
#define FKCG_RULE_SELECT "fkc.select"
#define FKCG_RULE_DRIFT "fkc.drift"
/* Registers the classes above with their descriptions. */
void fkcg_report_check_rules(fkcg_report *r);

/* diag.c: every message of d goes to r from now on (none is printed); rule names the class
 * of the messages that follow (fkcg_diag_rule), test their JUnit test case (NULL: the file). */
void fkcg_diag_collect(fkcg_diag *d, fkcg_report *r);
void fkcg_diag_rule(fkcg_diag *d, const char *rule, const char *test);
/* A second location for the message just reported: a "note" line in text, a related location
 * of that finding in a report. */
void fkcg_diag_related(fkcg_diag *d, const fkcg_loc *loc, const char *fmt, ...) FKCG_PRINTF(3, 4);

#endif
