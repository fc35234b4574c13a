-- Reference data: macro areas and their micro-area groups (GET /areas/micro-area-group/{MacroAreaId}).
-- Ids are fixed so that partners can rely on them across environments.
INSERT INTO macro_areas (id, name) VALUES (1, 'Saúde');
--> statement-breakpoint
INSERT INTO micro_area_groups (id, macro_area_id, name) VALUES
  (1, 1, 'Enfermagem'),
  (2, 1, 'Medicina'),
  (3, 1, 'Odontologia'),
  (4, 1, 'Fisioterapia'),
  (5, 1, 'Nutrição'),
  (6, 1, 'Farmácia'),
  (7, 1, 'Estética e Cosmética');
--> statement-breakpoint
INSERT INTO macro_areas (id, name) VALUES (2, 'Tecnologia da Informação');
--> statement-breakpoint
INSERT INTO micro_area_groups (id, macro_area_id, name) VALUES
  (8, 2, 'Desenvolvimento de Software'),
  (9, 2, 'Ciência de Dados'),
  (10, 2, 'Segurança da Informação'),
  (11, 2, 'Redes e Infraestrutura'),
  (12, 2, 'Design de Interfaces (UX/UI)');
--> statement-breakpoint
INSERT INTO macro_areas (id, name) VALUES (3, 'Negócios e Gestão');
--> statement-breakpoint
INSERT INTO micro_area_groups (id, macro_area_id, name) VALUES
  (13, 3, 'Administração'),
  (14, 3, 'Contabilidade'),
  (15, 3, 'Marketing Digital'),
  (16, 3, 'Recursos Humanos'),
  (17, 3, 'Logística'),
  (18, 3, 'Finanças e Investimentos');
--> statement-breakpoint
INSERT INTO macro_areas (id, name) VALUES (4, 'Educação');
--> statement-breakpoint
INSERT INTO micro_area_groups (id, macro_area_id, name) VALUES
  (19, 4, 'Pedagogia'),
  (20, 4, 'Formação de Professores'),
  (21, 4, 'Educação Especial e Inclusiva'),
  (22, 4, 'Psicopedagogia');
--> statement-breakpoint
INSERT INTO macro_areas (id, name) VALUES (5, 'Direito');
--> statement-breakpoint
INSERT INTO micro_area_groups (id, macro_area_id, name) VALUES
  (23, 5, 'Direito Civil'),
  (24, 5, 'Direito Penal'),
  (25, 5, 'Direito Tributário'),
  (26, 5, 'Direito do Trabalho');
--> statement-breakpoint
INSERT INTO macro_areas (id, name) VALUES (6, 'Engenharia e Arquitetura');
--> statement-breakpoint
INSERT INTO micro_area_groups (id, macro_area_id, name) VALUES
  (27, 6, 'Engenharia Civil'),
  (28, 6, 'Engenharia Elétrica'),
  (29, 6, 'Engenharia de Produção'),
  (30, 6, 'Arquitetura e Urbanismo');
--> statement-breakpoint
INSERT INTO macro_areas (id, name) VALUES (7, 'Comunicação e Artes');
--> statement-breakpoint
INSERT INTO micro_area_groups (id, macro_area_id, name) VALUES
  (31, 7, 'Jornalismo'),
  (32, 7, 'Publicidade e Propaganda'),
  (33, 7, 'Design Gráfico'),
  (34, 7, 'Fotografia e Audiovisual');
--> statement-breakpoint
INSERT INTO macro_areas (id, name) VALUES (8, 'Ciências Agrárias');
--> statement-breakpoint
INSERT INTO micro_area_groups (id, macro_area_id, name) VALUES
  (35, 8, 'Agronomia'),
  (36, 8, 'Medicina Veterinária'),
  (37, 8, 'Zootecnia');
--> statement-breakpoint
SELECT setval(pg_get_serial_sequence('macro_areas', 'id'), (SELECT max(id) FROM macro_areas));
--> statement-breakpoint
SELECT setval(pg_get_serial_sequence('micro_area_groups', 'id'), (SELECT max(id) FROM micro_area_groups));
